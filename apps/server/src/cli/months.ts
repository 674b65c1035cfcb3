import fs from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { PARTITIONED_TABLES, attachedMonths } from '../db/partitions.js';
import { ArchiveRefused, restoreArchive } from '../modules/retention/month-archive.js';
import { CliFailure } from './pix.js';

const monthLabel = (month: Date) => month.toISOString().slice(0, 7);

/** Each partitioned table's months in the database (with their rows, from the planner's statistics) and archived. */
export async function describeMonths(db: Db): Promise<string> {
  if (db.dialect !== 'postgres') return 'O SQLite guarda cada tabela inteira: não há meses particionados (decisão 80).';
  const lines: string[] = [];
  for (const { table } of PARTITIONED_TABLES) {
    lines.push(`${table}:`);
    for (const { name, month } of await attachedMonths(db.kysely, table)) {
      const { rows } = await sql<{ n: number }>`select greatest(reltuples, 0)::bigint as n from pg_class where relname = ${name}`.execute(
        db.kysely,
      );
      lines.push(`  ${monthLabel(month)}  no banco  ~${Number(rows[0]?.n ?? 0)} linha(s)  (${name})`);
    }
    const outside = await sql<{ n: number }>`select count(*) as n from ${sql.ref(`${table}_default`)}`.execute(db.kysely);
    const n = Number(outside.rows[0]?.n ?? 0);
    if (n > 0) lines.push(`  fora dos meses criados (${table}_default): ${n} linha(s); a retenção os move ao criar o mês`);
    const archived = await db.kysely
      .selectFrom('partition_archives')
      .selectAll()
      .where('table_name', '=', table)
      .orderBy('month')
      .execute();
    for (const a of archived)
      lines.push(`  ${monthLabel(new Date(a.month))}  arquivado  ${a.rows} linha(s)  ${a.file}  sha256=${a.sha256}`);
  }
  return lines.join('\n');
}

export async function restoreMonth(db: Db, file: string): Promise<string> {
  if (!fs.existsSync(file)) throw new CliFailure(`Arquivo não encontrado: ${file}`);
  try {
    const restored = await restoreArchive(db, file);
    return `${restored.partition}: ${restored.rows} linha(s) de volta ao banco (SHA-256 conferido: ${restored.sha256}).`;
  } catch (error) {
    if (error instanceof ArchiveRefused) throw new CliFailure(error.message);
    throw error;
  }
}
