import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../../src/db/connection.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { runCli } from '../../helpers/cli.js';
import { createTestDatabase, describeEachDatabase } from '../../helpers/databases.js';
import type { TestDatabase } from '../../helpers/databases.js';

describeEachDatabase('retention:run', (dialect) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.open();
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.kysely.destroy();
    await database.drop();
  });

  it('runs the job once and prints what it deleted per kind; a period below the law stops it', async () => {
    const past = Date.now() - 60_000;
    await db.kysely
      .insertInto('rate_limits')
      .values([0, 1, 2].map((i) => ({ scope: 'cli', key: `k${i}`, window_start: i, hits: 1, expires_at: past })))
      .execute();
    const out = await runCli(['retention:run'], { DATABASE_URL: database.url });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('Retenção de dados concluída:');
    expect(out.stdout).toContain('contadores de limite apagados: 3');
    expect(out.stdout).toContain('registros de acesso apagados: 0');
    expect(out.stdout).toContain('contas encerradas anonimizadas: 0');
    expect(await db.kysely.selectFrom('rate_limits').select('key').where('scope', '=', 'cli').execute()).toEqual([]);

    const refused = await runCli(['retention:run'], { DATABASE_URL: database.url, RETENTION_ACCESS_RECORDS_MONTHS: '3' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('RETENTION_ACCESS_RECORDS_MONTHS: no mínimo 6');
  });
});
