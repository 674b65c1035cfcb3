import { DRIVER_DATA_EXPORTS_PER_DAY, driverDataMessages } from '@portal/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../../src/db/connection.js';
import { createLogger } from '../../../src/logger.js';
import { createServices } from '../../../src/services.js';
import type { Config } from '../../../src/config.js';
import { newCpf, openTestDatabase } from '../../helpers/app.js';
import { describeOneDatabase } from '../../helpers/databases.js';
import type { TestDatabase } from '../../helpers/databases.js';

/** Issue 35's few downloads a day hold with two instances on one PostgreSQL. */
describeOneDatabase("'Meus dados' em duas instâncias", 'postgres', () => {
  let database: TestDatabase;
  let config: Config;
  const dbs: Db[] = [];

  beforeAll(async () => {
    const opened = await openTestDatabase('postgres');
    database = opened.database;
    config = opened.config;
    dbs.push(opened.db, database.open());
  });
  afterAll(async () => {
    for (const db of dbs) await db.kysely.destroy();
    await database.drop();
  });

  it('the last download of the day goes to one of the requests made at once, whatever instance they reach', async () => {
    const log = createLogger('silent');
    const [first, second] = dbs.map((db) => createServices(config, db, log));
    if (!first || !second) throw new Error('services');
    const { driver } = await first.auth.register({
      name: 'Maria da Silva',
      cpfCnpj: newCpf(),
      phoneNumber: '11987654321',
      password: 'senha-forte-1',
    });
    for (let i = 1; i < DRIVER_DATA_EXPORTS_PER_DAY; i++) (await first.driverData.export(driver.id, '203.0.113.9')).body.destroy();

    const answers = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? first : second).driverData.export(driver.id, '203.0.113.9')),
    );
    const sent = answers.filter((a) => a.status === 'fulfilled');
    for (const answer of sent) answer.value.body.destroy();
    expect(sent).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status === 'rejected')) {
      expect(answer.reason).toMatchObject({ message: driverDataMessages.dailyLimit });
    }
    const recorded = await dbs[0]!.kysely
      .selectFrom('access_records')
      .select('id')
      .where('driver_id', '=', driver.id)
      .where('action', '=', 'dados-baixados')
      .execute();
    expect(recorded).toHaveLength(DRIVER_DATA_EXPORTS_PER_DAY);
  });
});
