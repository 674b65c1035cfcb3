import type { ColumnDefinitionBuilder } from 'kysely';
import type { Dialect } from '../connection.js';

/** The only places the two dialects differ: key generation, timestamps and binary data. */
export interface ColumnTypes {
  id: 'integer' | 'serial';
  bigId: 'integer' | 'bigserial';
  idConstraints: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  timestamp: 'text' | 'timestamptz';
  blob: 'blob' | 'bytea';
}

export function columnTypes(dialect: Dialect): ColumnTypes {
  if (dialect === 'postgres') {
    return { id: 'serial', bigId: 'bigserial', idConstraints: (c) => c.primaryKey(), timestamp: 'timestamptz', blob: 'bytea' };
  }
  return {
    id: 'integer',
    bigId: 'integer',
    idConstraints: (c) => c.primaryKey().autoIncrement(),
    timestamp: 'text',
    blob: 'blob',
  };
}
