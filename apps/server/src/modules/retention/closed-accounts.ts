import { calendarMonthsCutoff } from '@portal/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';

/** Accounts anonymised per transaction: each touches a few tables. */
const ACCOUNTS_PER_BATCH = 200;

/** A CPF (a person's: LGPD art. 5, I); a CNPJ is a company's and is not personal data. */
const CPF_DIGITS = /^\d{11}$/;

/**
 * Decision 71: a closed account past its period (keep_until, written at the closing: decision 70, and
 * RETENTION_CLOSED_ACCOUNTS_YEARS after closed_at, at least 5: Lei 9.613/1998 art. 10, § 2º) keeps
 * its books and loses what still names a person. The closing already erased the name, phone,
 * password, sessions, devices, saved keys and replaced the driver's CPF/CNPJ; here go the document
 * kept apart, and what the records of the account still carry of people: the withdrawals'
 * destination key, receiver and description, the vehicles' plate and ANTT holder, the VPOs' plate,
 * ANTT ids and a shipper's CPF, the contests' own words. Amounts, dates, statuses, places and the
 * ledger stay: they are the company's books, and no longer anyone's. Once done the kept document is
 * '' (the mark that the account was anonymised); a run finds it done and changes nothing.
 */
export async function anonymiseClosedAccounts(db: Db, now: Date, years: number): Promise<number> {
  const nowIso = now.toISOString();
  const closedBefore = calendarMonthsCutoff(now, years * 12).toISOString();
  let total = 0;
  for (;;) {
    const done = await db.kysely.transaction().execute(async (trx) => {
      const ids = (
        await trx
          .selectFrom('closed_accounts')
          .select('driver_id')
          .where('keep_until', '<=', nowIso)
          .where('closed_at', '<', closedBefore)
          .where('cpf_cnpj', '<>', '')
          .orderBy('driver_id')
          .limit(ACCOUNTS_PER_BATCH)
          .execute()
      ).map((r) => r.driver_id);
      if (ids.length === 0) return 0;
      await trx
        .updateTable('withdrawals')
        .set({ pix_key: '', receiver_name: null, receiver_document: null, description: '' })
        .where('driver_id', 'in', ids)
        .execute();
      await trx.deleteFrom('pix_keys').where('driver_id', 'in', ids).execute();
      await trx
        .updateTable('vehicles')
        // A plate is unique among a driver's live vehicles: each gets its own meaningless one.
        .set({ license_plate: sql<string>`'anonimizado-' || id`, cpf_cnpj_antt: '', rntrc_antt: '' })
        .where('driver_id', 'in', ids)
        .execute();
      await trx.updateTable('vpos').set({ plate: '', antt_id: null, rntrc: null }).where('driver_id', 'in', ids).execute();
      const shippers = await trx.selectFrom('vpos').select(['id', 'shipper_document']).where('driver_id', 'in', ids).execute();
      const personal = shippers.filter((v) => CPF_DIGITS.test(v.shipper_document)).map((v) => v.id);
      if (personal.length > 0) await trx.updateTable('vpos').set({ shipper_document: '' }).where('id', 'in', personal).execute();
      await trx.updateTable('contests').set({ description: null }).where('driver_id', 'in', ids).execute();
      await trx
        .updateTable('closed_accounts')
        .set({ cpf_cnpj: '', receipt_token_hash: null, receipt_expires_at: null })
        .where('driver_id', 'in', ids)
        .execute();
      return ids.length;
    });
    total += done;
    if (done < ACCOUNTS_PER_BATCH) return total;
  }
}

/** The closing receipt's one-time links past their expiry: their token hash is cleared. */
export async function clearClosureReceiptLinks(db: Db, now: Date): Promise<number> {
  const result = await db.kysely
    .updateTable('closed_accounts')
    .set({ receipt_token_hash: null, receipt_expires_at: null })
    .where('receipt_expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
