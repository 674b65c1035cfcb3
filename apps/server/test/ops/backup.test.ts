import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STATEMENT_ORIGINS } from '@portal/domain';
import { afterAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Db, Dialect } from '../../src/db/connection.js';
import { createLogger } from '../../src/logger.js';
import { accountId, post } from '../../src/modules/ledger/ledger.js';
import { ensureTerms } from '../../src/modules/terms/bootstrap.js';
import { TermsService } from '../../src/modules/terms/service.js';
import { openTestDatabase, registerDriver } from '../helpers/app.js';
import type { Registered } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { acceptTerms, expectLedgerInvariant, fund } from '../helpers/pix.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function passage(db: Db, d: Registered, cents: number, key: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const own = await accountId(trx, d.id, 'own');
    await post(trx, {
      accountId: own,
      amountCents: -cents,
      origin: STATEMENT_ORIGINS.passage,
      placeName: 'Praça Jacareí',
      idempotencyKey: key,
    });
  });
}

/** What the backup must bring back: every driver, entry and balance. */
async function state(db: Db) {
  const drivers = await db.kysely.selectFrom('drivers').select(['id', 'cpf_cnpj']).orderBy('id').execute();
  const entries = await db.kysely
    .selectFrom('ledger_entries')
    .select(['id', 'amount_cents', 'origin', 'idempotency_key'])
    .orderBy('id')
    .execute();
  const accounts = await db.kysely.selectFrom('accounts').select(['id', 'balance_cents']).orderBy('id').execute();
  const norm = <T extends Record<string, unknown>>(rows: T[]) =>
    rows.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' || (typeof v === 'string' && /^\d+$/.test(v)) ? Number(v) : v]),
      ),
    );
  return { drivers: norm(drivers), entries: norm(entries), accounts: norm(accounts) };
}

describeEachDatabase('db:backup and db:restore', (dialect: Dialect) => {
  it('back up with the server up, change data, restore with it stopped: the backed-up state, balances = entries', async () => {
    const { database, config, db } = await openTestDatabase(dialect);
    const env = { DATABASE_URL: database.url };
    const file = path.join(dir, `portal-${dialect}.backup`);
    let reopened: Db | null = null;
    try {
      await ensureTerms(new TermsService(db.kysely));
      const app = await buildApp({ config, db, logger: createLogger('silent') });
      const d = await registerDriver(app);
      await acceptTerms(app, d);
      await fund(app, d, 200);
      await passage(db, d, 3_490, `backup-test-${dialect}-1`);
      const backedUp = await state(db);

      const backup = await runCli(['db:backup', file], env);
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(backup.stdout).toContain(file);
      expect(fs.statSync(file).size).toBeGreaterThan(0);
      // The refusals do not depend on the engine: checked once (each CLI run costs seconds).
      if (dialect === 'sqlite') expect((await runCli(['db:backup', file], env)).stderr).toContain('já existe');

      // After the backup: another purchase settled, another passage, another driver.
      await fund(app, d, 150);
      await passage(db, d, 1_000, `backup-test-${dialect}-2`);
      await registerDriver(app);
      expect((await state(db)).entries.length).toBe(backedUp.entries.length + 2);

      if (dialect === 'sqlite') {
        const refused = await runCli(['db:restore', file], env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('--force');
        expect((await state(db)).entries.length).toBe(backedUp.entries.length + 2);
      }

      await app.close();
      await db.kysely.destroy();
      const restore = await runCli(['db:restore', file, '--force'], env);
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);

      reopened = database.open();
      expect(await state(reopened)).toEqual(backedUp);
      await expectLedgerInvariant(reopened);
      if (dialect === 'sqlite') {
        const saved = fs.readdirSync(path.dirname(database.url.replace(/^file:/, ''))).filter((f) => f.includes('antes-da-restauracao'));
        expect(saved).toHaveLength(1);
      }
    } finally {
      await reopened?.kysely.destroy();
      await database.drop();
    }
  }, 60_000);
});
