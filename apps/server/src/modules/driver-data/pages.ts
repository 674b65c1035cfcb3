import { centsToReais, type DriverDataKind, STATEMENT_ACCOUNT_OF_KIND } from '@portal/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

/** One record of a file, with Portuguese keys (the API's language); null where the portal holds nothing. */
export type DataRecord = Record<string, unknown>;

/** Rows read per query: a driver with 100,000 movements costs 100 short index range reads. */
export const DATA_CHUNK_ROWS = 1_000;

/** Some of the ZIP's kinds, each with its reader. */
export type KindsOf<K extends DriverDataKind> = Readonly<Record<K, DataKindReader>>;

export interface DataKindReader {
  /** The tables whose rows of the driver this file carries (the completeness test reads them). */
  tables: readonly (keyof Database)[];
  count(db: Kysely<Database>, driverId: number, since: string): Promise<number>;
  /** The records in chunks, read as the ZIP takes them: never the whole kind in memory. */
  records(db: Kysely<Database>, driverId: number, since: string): AsyncIterable<DataRecord[]>;
}

/** PostgreSQL reads a Date; SQLite the ISO text the portal wrote (nowIso), passed on as it is. */
export const iso = (value: Date | string | null): string | null =>
  value === null ? null : typeof value === 'string' ? value : value.toISOString();
export const reais = (cents: number | null): number | null => (cents === null ? null : centsToReais(cents));
/** The tables with a driver_id column. */
export type DriverTable = { [T in keyof Database]: Database[T] extends { driver_id: number } ? T : never }[keyof Database];

/** How many rows of a table are the driver's (its driver_id index). */
export const countRows =
  (table: DriverTable): DataKindReader['count'] =>
  async (db, driverId) =>
    Number(
      (await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where driver_id = ${driverId}`.execute(db)).rows[0]
        ?.n ?? 0,
    );

export const countOf = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }): Promise<number> =>
  Number((await query.executeTakeFirstOrThrow()).n);

/** Keyset pages of rows by a unique, ordered key (an id, a text id, a (time, id) pair). */
export async function* keysetPages<R, K>(first: K, keyOf: (row: R) => K, page: (after: K) => Promise<R[]>): AsyncGenerator<R[]> {
  let after = first;
  for (;;) {
    const rows = await page(after);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < DATA_CHUNK_ROWS || last === undefined) return;
    after = keyOf(last);
  }
}

/** keysetPages, each row shaped for the file. */
export async function* pagesOf<R, K>(
  first: K,
  keyOf: (row: R) => K,
  page: (after: K) => Promise<R[]>,
  shape: (row: R) => DataRecord,
): AsyncGenerator<DataRecord[]> {
  for await (const rows of keysetPages(first, keyOf, page)) yield rows.map(shape);
}

export const byNumericId = <R extends { id: number | string }>(page: (after: number) => Promise<R[]>, shape: (row: R) => DataRecord) =>
  pagesOf(0, (row: R) => Number(row.id), page, shape);

/** After this row in (time, id) order: the order of an index (driver_id, time, id), read without a sort. */
export type TimeKey = readonly [Date | string, number] | null;
export const byTimeAndId = <R extends { id: number | string }>(
  page: (after: TimeKey) => Promise<R[]>,
  timeOf: (row: NoInfer<R>) => Date | string,
  shape: (row: NoInfer<R>) => DataRecord,
) => pagesOf<R, TimeKey>(null, (row) => [timeOf(row), Number(row.id)], page, shape);

/** A small kind read at once (a driver has a handful of these). */
export async function* allAtOnce<R>(rows: () => Promise<R[]>, shape: (row: R) => DataRecord): AsyncGenerator<DataRecord[]> {
  const all = await rows();
  if (all.length > 0) yield all.map(shape);
}

export const ACCOUNT_NAMES = STATEMENT_ACCOUNT_OF_KIND;

/**
 * A page of a table's rows of the driver, whole, after an id: the driver's (driver_id, id) index
 * (migration 022). For the kinds that carry every column of their table.
 */
export const driverRowsAfter =
  <T extends DriverTable>(db: Kysely<Database>, table: T, driverId: number) =>
  async (after: number): Promise<Selectable<Database[T]>[]> =>
    (
      await sql<
        Selectable<Database[T]>
      >`select * from ${sql.table(table)} where driver_id = ${driverId} and id > ${after} order by id limit ${DATA_CHUNK_ROWS}`.execute(db)
    ).rows;
