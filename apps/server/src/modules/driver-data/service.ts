import {
  ACCESS_RECORDS_MONTHS,
  calendarMonthsCutoff,
  DRIVER_DATA_EXPORTS_PER_DAY,
  DRIVER_DATA_KINDS,
  type DriverDataKind,
  driverDataMessages,
  refuse,
} from '@portal/domain';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/connection.js';
import { lockDriver } from '../../db/lock.js';
import type { Database } from '../../db/schema.js';
import { recordAccess } from '../auth/access-records.js';
import { DATA_KINDS } from './kinds.js';
import { dataSummaryPdf } from './summary-pdf.js';
import { driverDataZip } from './zip.js';

const DAY_MS = 24 * 3_600_000;

/** The ZIP as the file call sends it: its type, its name and its bytes, streamed. */
export interface DriverDataFile {
  contentType: 'application/zip';
  fileName: string;
  body: Readable;
}

/** YYYY-MM-DD in São Paulo, for the file's name. */
const saoPauloDay = (now: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(now);

/**
 * Issue 35, point 1: everything the portal holds about the driver as one ZIP (LGPD art. 18, II and
 * V). Every read is by the signed-in driver's id, which is the only id that reaches it.
 */
export class DriverDataService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly clock: () => Date,
  ) {}

  /** Downloads of the driver's data in the last 24 hours (each is an access record). */
  private async downloadsToday(db: Kysely<Database>, driverId: number, now: Date): Promise<number> {
    const row = await db
      .selectFrom('access_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('driver_id', '=', driverId)
      .where('action', '=', 'dados-baixados')
      .where('occurred_at', '>', new Date(now.getTime() - DAY_MS).toISOString())
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The ZIP as the file call sends it. Refused when the driver already downloaded it
   * DRIVER_DATA_EXPORTS_PER_DAY times in 24 hours; otherwise the download is recorded as an
   * access (address and time) before the first byte.
   */
  async export(driverId: number, ipAddress: string): Promise<DriverDataFile> {
    const now = this.clock();
    // Counted and recorded under the driver's lock: two instances asked at once cannot both pass
    // the last download of the day.
    await this.db.transaction().execute(async (trx) => {
      await lockDriver(trx, this.dialect, driverId);
      if ((await this.downloadsToday(trx, driverId, now)) >= DRIVER_DATA_EXPORTS_PER_DAY) {
        throw refuse.tooMany(driverDataMessages.dailyLimit, DAY_MS / 1000);
      }
      await recordAccess(trx, driverId, 'dados-baixados', ipAddress);
    });
    const since = calendarMonthsCutoff(now, ACCESS_RECORDS_MONTHS).toISOString();
    const driver = await this.db
      .selectFrom('drivers')
      .select(['name', 'cpf_cnpj', 'phone_number', 'created_at'])
      .where('id', '=', driverId)
      .executeTakeFirstOrThrow();
    const accounts = await this.db.selectFrom('accounts').select(['kind', 'balance_cents']).where('driver_id', '=', driverId).execute();
    const balance = (kind: string) => accounts.find((a) => a.kind === kind)?.balance_cents ?? 0;
    const kinds = Object.keys(DRIVER_DATA_KINDS) as DriverDataKind[];
    const counts = Object.fromEntries(
      await Promise.all(kinds.map(async (kind) => [kind, await DATA_KINDS[kind].count(this.db, driverId, since)] as const)),
    ) as Record<DriverDataKind, number>;
    const summary = await dataSummaryPdf({
      name: driver.name,
      cpfCnpj: driver.cpf_cnpj,
      phone: driver.phone_number,
      since: typeof driver.created_at === 'string' ? driver.created_at : driver.created_at.toISOString(),
      balances: { own: balance('own'), third: balance('third'), vpo: balance('vpo') },
      counts,
      generatedAt: now,
    });
    return {
      contentType: 'application/zip',
      fileName: driverDataMessages.fileName(saoPauloDay(now)),
      body: driverDataZip(this.db, driverId, since, summary, now),
    };
  }
}
