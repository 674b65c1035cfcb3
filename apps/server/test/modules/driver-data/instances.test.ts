import { DRIVER_DATA_EXPORTS_PER_DAY, driverDataMessages } from '@portal/domain';
import { expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { createServices } from '../../../src/services.js';
import { newCpf, recordedDownloads, useTwoInstancesDatabase } from '../../helpers/app.js';
import { describeOneDatabase } from '../../helpers/databases.js';

/** Issue 35's few downloads a day hold with two instances on one PostgreSQL. */
describeOneDatabase("'Meus dados' em duas instâncias", 'postgres', () => {
  const instances = useTwoInstancesDatabase('postgres');

  it('the last download of the day goes to one of the requests made at once, whatever instance they reach', async () => {
    const { config, dbs } = instances();
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
    expect(await recordedDownloads(dbs[0], driver.id)).toEqual(Array.from({ length: DRIVER_DATA_EXPORTS_PER_DAY }, () => '203.0.113.9'));
  });
});
