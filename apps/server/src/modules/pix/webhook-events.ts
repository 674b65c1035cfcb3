import type { AsaasWebhook } from '@portal/contract';
import { serverMessages } from '@portal/domain';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/connection.js';
import type { Database, WebhookEventRow } from '../../db/schema.js';

export type UnappliedReason = keyof typeof serverMessages.pix.unapplied;

/** What became of one authenticated webhook: counted by whoever listens (metrics). */
export interface WebhookOutcome {
  event: string;
  result: 'applied' | 'ignored' | 'recorded';
  reason?: UnappliedReason;
}

/** What became of one event inside the handler: applied, ignored, or recorded (moves nothing) for the operator. */
export type EventOutcome = { result: 'applied' } | { result: 'ignored' } | { result: 'recorded'; reason: UnappliedReason; detail?: string };

export const appliedOutcome: EventOutcome = { result: 'applied' };
export const recordedOutcome = (reason: UnappliedReason, detail?: string): EventOutcome => ({ result: 'recorded', reason, detail });

const EXCERPT_MAX = 2_000;

/** The provider's reference named by an event: its payment, transfer, Pix Automático authorization or instruction id. */
function providerRef(body: AsaasWebhook): string | null {
  return body.payment?.id ?? body.transfer?.id ?? body.authorization?.id ?? body.paymentInstruction?.id ?? null;
}

/**
 * Events answered 200 but not applied, kept for the operator (pix:events). The excerpt is the
 * body as the contract parsed it: only ids, values, statuses and references, never a key,
 * a name or a document (Asaas's transfer objects carry the receiver's; the contract drops them).
 */
export class WebhookEventLog {
  constructor(private readonly db: Kysely<Database>) {}

  /** Once per event: Asaas's retries and concurrent deliveries of it leave one row. */
  async record(body: AsaasWebhook, reason: UnappliedReason, detail?: string): Promise<void> {
    const ref = providerRef(body);
    await this.insert({
      dedupeKey: body.id ?? `${body.event}:${ref ?? '-'}:${reason}`,
      event: body.event,
      ref,
      reason,
      detail,
      excerpt: JSON.stringify(body),
    });
  }

  /**
   * Decision 60: a contradiction pix:reconcile found by asking the provider: one row per object and
   * disagreement, whatever the number of runs, and none while one about the object is still open. `excerpt`: the provider's ids and statuses.
   */
  async recordFinding(ref: string, detail: string, excerpt: Record<string, unknown>): Promise<void> {
    const open = await this.db
      .selectFrom('webhook_events')
      .select('id')
      .where('provider_ref', '=', ref)
      .where('reason_code', '=', 'contradiction')
      .where('status', '=', 'open')
      .executeTakeFirst();
    // The provider's event already told it: one row to look at.
    if (open) return;
    await this.insert({
      dedupeKey: `pix:reconcile:${ref}:${detail}`,
      event: 'pix:reconcile',
      ref,
      reason: 'contradiction',
      detail,
      excerpt: JSON.stringify(excerpt),
    });
  }

  private async insert(row: {
    dedupeKey: string;
    event: string;
    ref: string | null;
    reason: UnappliedReason;
    detail: string | undefined;
    excerpt: string;
  }): Promise<void> {
    await this.db
      .insertInto('webhook_events')
      .values({
        dedupe_key: row.dedupeKey,
        event: row.event,
        provider_ref: row.ref,
        reason_code: row.reason,
        reason: serverMessages.pix.unapplied[row.reason] + (row.detail ? ` (${row.detail})` : ''),
        excerpt: row.excerpt.slice(0, EXCERPT_MAX),
        status: 'open',
        note: null,
        created_at: nowIso(),
        resolved_at: null,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .execute();
  }

  async open(limit = 200): Promise<WebhookEventRow[]> {
    return this.db.selectFrom('webhook_events').selectAll().where('status', '=', 'open').orderBy('id').limit(limit).execute();
  }

  /** Open events, or only those of one reason (decision 60: the open contradictions' gauge). */
  async countOpen(reason?: UnappliedReason): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'open')
      .$if(reason !== undefined, (qb) => qb.where('reason_code', '=', reason ?? ''))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async get(id: number): Promise<WebhookEventRow | null> {
    return (await this.db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** The operator looked into it (or reconciliation settled it): open -> resolved, once. */
  async resolve(id: number, note: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_events')
      .set({ status: 'resolved', note, resolved_at: nowIso() })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Every open event about one payment or transfer, once its outcome is settled elsewhere. */
  async resolveFor(ref: string, reasons: readonly UnappliedReason[], note: string): Promise<number> {
    const result = await this.db
      .updateTable('webhook_events')
      .set({ status: 'resolved', note, resolved_at: nowIso() })
      .where('provider_ref', '=', ref)
      .where('status', '=', 'open')
      .where('reason_code', 'in', [...reasons])
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
