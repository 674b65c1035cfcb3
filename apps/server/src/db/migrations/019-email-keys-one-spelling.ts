import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';

/**
 * Issue 33, point 2 (decision 61): an e-mail Pix key has one spelling, trimmed and in lower case, so
 * `Ladrao@Example.com` and `ladrao@example.com` are one saved key, counted and capped as one. Saved keys
 * a driver wrote in several cases become one: the first saved stays (its date is the key's first date,
 * as saving a key again keeps it) and the later spellings go. Withdrawals to an e-mail key take the same
 * spelling, so the first 24 hours' sum counts them all. The rule is written here, not imported, so this
 * migration does what it did the day it was released. JavaScript lowers every alphabet; SQLite's lower()
 * only ASCII.
 */
const spelling = (key: string): string => key.trim().toLowerCase();

interface KeyRow {
  id: number;
  driver_id: number;
  key: string;
}

export function emailKeysOneSpelling(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const saved = await sql<KeyRow>`
        select id, driver_id, key from pix_keys where key_type = 'EMAIL' order by driver_id, created_at, id`.execute(db);
      const first = new Map<string, number>();
      for (const row of saved.rows) {
        const one = `${row.driver_id} ${spelling(row.key)}`;
        if (first.has(one)) await sql`delete from pix_keys where id = ${row.id}`.execute(db);
        else first.set(one, Number(row.id));
      }
      for (const row of saved.rows) {
        if (first.get(`${row.driver_id} ${spelling(row.key)}`) === Number(row.id) && row.key !== spelling(row.key)) {
          await sql`update pix_keys set key = ${spelling(row.key)} where id = ${row.id}`.execute(db);
        }
      }
      const sent = await sql<{ id: number; pix_key: string }>`
        select id, pix_key from withdrawals where pix_key_type = 'EMAIL'`.execute(db);
      for (const row of sent.rows) {
        if (row.pix_key !== spelling(row.pix_key)) {
          await sql`update withdrawals set pix_key = ${spelling(row.pix_key)} where id = ${row.id}`.execute(db);
        }
      }
    },
  };
}
