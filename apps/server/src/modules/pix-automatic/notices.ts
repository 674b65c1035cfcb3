import type { AttentionNotice } from '@portal/contract';
import { centsToReais, cycleFailedText, PIX_AUTOMATIC_NOTICE_DAYS } from '@portal/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Decision 58: the dashboard's notice of each cycle the bank did not debit (refused, failed on its
 * day, or cancelled by the payer) in the last PIX_AUTOMATIC_NOTICE_DAYS, while no later cycle of the
 * same authorization was paid; the newest first.
 */
export async function failedCycleNotices(db: Kysely<Database>, driverId: number, now: Date): Promise<AttentionNotice[]> {
  const since = new Date(now.getTime() - PIX_AUTOMATIC_NOTICE_DAYS * 86_400_000).toISOString();
  const rows = await db
    .selectFrom('pix_automatic_cycles as c')
    .innerJoin('pix_automatic_authorizations as a', 'a.id', 'c.authorization_id')
    .innerJoin('pix_charges as ch', 'ch.id', 'c.charge_id')
    .select(['c.charge_id', 'c.authorization_id', 'c.due_date', 'c.failure_reason', 'ch.amount_cents'])
    .where('a.driver_id', '=', driverId)
    .where('c.status', 'in', ['REFUSED', 'CANCELLED'])
    .where('c.failed_at', '>=', since)
    // A later cycle of the same authorization was paid: the money came after all.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('pix_automatic_cycles as p')
            .select('p.charge_id')
            .whereRef('p.authorization_id', '=', 'c.authorization_id')
            .whereRef('p.number', '>', 'c.number')
            .where('p.status', '=', 'PAID'),
        ),
      ),
    )
    .orderBy('c.failed_at', 'desc')
    .execute();
  return rows.map((r) => ({
    tipo: 'recarga-automatica-falhou',
    Mensagem: cycleFailedText(Number(r.amount_cents), r.due_date, r.failure_reason),
    autorizacaoId: r.authorization_id,
    cicloId: r.charge_id,
    valor: centsToReais(Number(r.amount_cents)),
    dataDebito: r.due_date,
  }));
}
