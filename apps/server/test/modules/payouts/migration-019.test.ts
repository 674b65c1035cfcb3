import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../../src/db/migrate.js';
import { describeEachDatabase, useFreshDatabase } from '../../helpers/databases.js';

/**
 * Migration 019 (decision 61) over a database written before it: one driver saved one mailbox in three
 * cases and sent to each; another driver saved the same mailbox once. After it, each driver has the
 * mailbox once (the first saved, its first date), every withdrawal names it in lower case, and the rest
 * is untouched.
 */
describeEachDatabase('migração 019: uma chave de e-mail é uma chave', (dialect) => {
  const freshDb = useFreshDatabase(dialect);

  it('merges the spellings of one mailbox into the first saved, and writes every e-mail key in lower case', async () => {
    const db = freshDb();
    await migrateTo(db, '018-pix-automatic');
    const at = (hour: number) => new Date(Date.UTC(2026, 10, 25, hour)).toISOString();
    const driver = async (cpf: string) =>
      (
        await sql<{ id: number }>`insert into drivers (name, cpf_cnpj, phone_number, password_hash, created_at)
          values ('M', ${cpf}, '+5511900000000', 'x', ${at(0)}) returning id`.execute(db.kysely)
      ).rows[0]!.id;
    const thief = await driver('MIG20A');
    const other = await driver('MIG20B');
    const saveKey = async (driverId: number, keyType: string, key: string, hour: number) =>
      (
        await sql<{ id: number }>`insert into pix_keys (driver_id, key_type, key, created_at)
          values (${driverId}, ${keyType}, ${key}, ${at(hour)}) returning id`.execute(db.kysely)
      ).rows[0]!.id;
    const firstId = await saveKey(thief, 'EMAIL', 'Ladrao@Example.com', 1);
    await saveKey(thief, 'EMAIL', 'ladrao@example.com', 2);
    await saveKey(thief, 'EMAIL', 'LADRAO@EXAMPLE.COM', 3);
    const evpId = await saveKey(thief, 'EVP', '123e4567-e89b-12d3-a456-426614174000', 4);
    const otherId = await saveKey(other, 'EMAIL', 'Ladrao@Example.com', 5);
    let n = 0;
    for (const [driverId, keyType, key, cents] of [
      [thief, 'EMAIL', 'Ladrao@Example.com', 50_000],
      [thief, 'EMAIL', 'ladrao@example.com', 45_000],
      [thief, 'EMAIL', 'LADRAO@EXAMPLE.COM', 100],
      [thief, 'CPF', '52998224725', 700],
    ] as const) {
      n += 1;
      await sql`insert into withdrawals (id, driver_id, amount_cents, pix_key_type, pix_key, description, status, created_at)
        values (${`w-mig20-${n}`}, ${driverId}, ${cents}, ${keyType}, ${key}, 'Saque', 'DONE', ${at(n)})`.execute(db.kysely);
    }

    await migrateToLatest(db);

    const keys = await db.kysely
      .selectFrom('pix_keys')
      .select(['id', 'driver_id', 'key_type', 'key', 'created_at'])
      .orderBy('id')
      .execute();
    expect(keys.map((k) => [k.id, k.driver_id, k.key_type, k.key, new Date(String(k.created_at)).toISOString()])).toEqual([
      [firstId, thief, 'EMAIL', 'ladrao@example.com', at(1)],
      [evpId, thief, 'EVP', '123e4567-e89b-12d3-a456-426614174000', at(4)],
      [otherId, other, 'EMAIL', 'ladrao@example.com', at(5)],
    ]);
    const sent = await db.kysely.selectFrom('withdrawals').select(['pix_key', 'amount_cents']).orderBy('id').execute();
    expect(sent.map((w) => [w.pix_key, Number(w.amount_cents)])).toEqual([
      ['ladrao@example.com', 50_000],
      ['ladrao@example.com', 45_000],
      ['ladrao@example.com', 100],
      ['52998224725', 700],
    ]);
  });
});
