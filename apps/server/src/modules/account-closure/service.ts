import { createHash, randomBytes } from 'node:crypto';
import type { ClosureBlocker } from '@portal/domain';
import {
  accountClosureMessages,
  CLOSED_ACCOUNT_NAME,
  CLOSURE_RECEIPT_LINK_MINUTES,
  closureBlockers,
  closureKeepUntil,
  maskCpfCnpj,
  Refusal,
  refuse,
  tagState,
} from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { Db, Trx } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { forUpdate, lockDriver } from '../../db/lock.js';
import type { PasswordConfirmation } from '../auth/confirmation.js';
import { forgetDocument } from '../auth/throttle.js';
import { liveAuthorization } from '../pix-automatic/queries.js';
import type { PixAutomaticService } from '../pix-automatic/service.js';
import type { TagService } from '../tags/service.js';
import { forgetUnpaidTolls } from '../passages/free-flow/tolls.js';
import { closedAccount, closureFacts } from './queries.js';

/** The drivers row's document after closing: unique, never a CPF/CNPJ (letters), so the real one is free again. */
const closedDocument = (driverId: number) => `encerrada-${driverId}`;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ClosingReceiptLink {
  url: string;
  expiresAt: Date;
}

/** The closing receipt's data (the PDF, modules/account-closure/receipt-pdf.ts). */
export interface ClosingReceipt {
  driverId: number;
  cpfCnpj: string;
  closedAt: Date;
  keepUntil: Date;
}

/**
 * Issue 35, decision 70: the driver closes their account. Refused with every reason while money or
 * a process is still under way (domain closureBlockers), checked again inside the closing
 * transaction under the driver's lock (a passage, a purchase or a VPO landing meanwhile queues on
 * it). The automatic top-up is cancelled at the provider first, as the driver's own 'Cancelar'
 * does, so that no debit can land on a closed account; then one transaction ends every session
 * and erases what is no longer needed; then each tag is cancelled through the operator gateway,
 * a failure recorded for a retry without undoing the closure.
 */
export class AccountClosureService {
  constructor(
    private readonly db: Db,
    private readonly confirmation: PasswordConfirmation,
    private readonly pixAutomatic: Pick<PixAutomaticService, 'cancel'>,
    private readonly tags: Pick<TagService, 'cancelForClosedAccount'>,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Every reason the account cannot be closed now; empty: it can. */
  async blockers(driverId: number): Promise<ClosureBlocker[]> {
    return closureBlockers(await closureFacts(this.db.kysely, driverId, this.now()));
  }

  async close(driverId: number, password: string): Promise<ClosingReceiptLink> {
    throwIfBlocked(await this.blockers(driverId));
    await this.confirmation.check(driverId, password, { message: accountClosureMessages.passwordRequired, field: 'senha' });
    const cancelledTopUp = await this.cancelTopUp(driverId);
    const token = randomBytes(32).toString('base64url');
    const { pendingTags, cpfCnpj, expiresAt } = await this.db.kysely
      .transaction()
      .execute((trx) => this.closeLocked(trx, driverId, token, cancelledTopUp));
    this.log.info({ driverId, cpfCnpj: maskCpfCnpj(cpfCnpj), tags: pendingTags.length }, 'conta encerrada pelo motorista');
    // The account is closed and its sessions ended: whatever happens below, the driver gets the receipt's link.
    for (const tagId of pendingTags) {
      await this.cancelTag(tagId).catch((error: unknown) => {
        this.log.error({ err: error, tagId }, 'tag de conta encerrada não cancelada na operadora; repita com encerramento:tags');
      });
    }
    return { url: `/api/encerramento/comprovante/${token}`, expiresAt };
  }

  /** The closing receipt of a link still valid (CLOSURE_RECEIPT_LINK_MINUTES), else 404. */
  async receipt(token: string): Promise<ClosingReceipt> {
    const row = await this.db.kysely
      .selectFrom('closed_accounts')
      .selectAll()
      .where('receipt_token_hash', '=', tokenHash(token))
      .where('receipt_expires_at', '>', this.now().toISOString())
      .executeTakeFirst();
    if (!row) throw refuse.notFound(accountClosureMessages.receiptExpired);
    return { driverId: row.driver_id, cpfCnpj: row.cpf_cnpj, closedAt: new Date(row.closed_at), keepUntil: new Date(row.keep_until) };
  }

  /**
   * Retries the tags of closed accounts the operator could not cancel at closing (the CLI's
   * `encerramento:tags`); answers how many are still pending.
   */
  async retryTagCancellations(): Promise<{ cancelled: number; pending: number }> {
    const pending = await this.db.kysely
      .selectFrom('closure_tag_cancellations')
      .select('tag_id')
      .where('cancelled_at', 'is', null)
      .orderBy('tag_id')
      .execute();
    let cancelled = 0;
    for (const { tag_id } of pending) if (await this.cancelTag(tag_id)) cancelled += 1;
    return { cancelled, pending: pending.length - cancelled };
  }

  /** The live authorization cancelled at the provider as the driver's 'Cancelar' does; its id, or null when there was none. */
  private async cancelTopUp(driverId: number): Promise<string | null> {
    const live = await liveAuthorization(this.db.kysely, driverId);
    if (!live) return null;
    try {
      await this.pixAutomatic.cancel(driverId, live.id);
    } catch (error) {
      // Ended meanwhile (by the bank, or another tab): nothing left to cancel.
      if (error instanceof Refusal && error.kind === 'conflict') return live.id;
      if (error instanceof Refusal && error.kind === 'provider-failed')
        throw refuse.providerFailed(accountClosureMessages.topUpProviderFailed);
      throw error;
    }
    return live.id;
  }

  private async closeLocked(
    trx: Trx,
    driverId: number,
    token: string,
    cancelledTopUp: string | null,
  ): Promise<{ pendingTags: number[]; cpfCnpj: string; expiresAt: Date }> {
    await lockDriver(trx, this.db.dialect, driverId);
    if (await closedAccount(trx, driverId)) throw refuse.conflict(accountClosureMessages.alreadyClosed);
    // The tags first: a passage locks the driver, then its tag, then the accounts; under the driver's lock these are ours.
    const tags = await trx
      .selectFrom('tags')
      .select(['id', 'status_code', 'released_at'])
      .where('driver_id', '=', driverId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .$call(forUpdate(this.db.dialect))
      .execute();
    const now = this.now();
    throwIfBlocked(closureBlockers(await closureFacts(trx, driverId, now)));
    const topUp = await liveAuthorization(trx, driverId);
    if (topUp && topUp.id !== cancelledTopUp) throw refuse.conflict(accountClosureMessages.topUpCreatedMeanwhile);

    const at = now.toISOString();
    const expiresAt = new Date(now.getTime() + CLOSURE_RECEIPT_LINK_MINUTES * 60_000);
    const driver = await trx.selectFrom('drivers').select('cpf_cnpj').where('id', '=', driverId).executeTakeFirstOrThrow();
    await trx.updateTable('sessions').set({ revoked_at: at }).where('driver_id', '=', driverId).where('revoked_at', 'is', null).execute();
    await trx.deleteFrom('push_subscriptions').where('driver_id', '=', driverId).execute();
    await trx.deleteFrom('pix_keys').where('driver_id', '=', driverId).execute();
    await trx.deleteFrom('payout_limits').where('driver_id', '=', driverId).execute();
    await trx.deleteFrom('profile_changes').where('driver_id', '=', driverId).execute();
    await trx.deleteFrom('idempotency_keys').where('driver_id', '=', driverId).execute();
    await forgetDocument(trx, driver.cpf_cnpj);
    await trx
      .deleteFrom('notification_outbox')
      .where('driver_id', '=', driverId)
      .where('sent_at', 'is', null)
      .where('gave_up_at', 'is', null)
      .execute();

    // Out of every list and every partner's reach (decision 70): a deleted tag holds no serial.
    await trx.updateTable('tags').set({ deleted_at: at }).where('driver_id', '=', driverId).where('deleted_at', 'is', null).execute();
    await trx.updateTable('vehicles').set({ cpf_cnpj_antt: '' }).where('driver_id', '=', driverId).execute();
    await trx.updateTable('vehicles').set({ deleted_at: at }).where('driver_id', '=', driverId).where('deleted_at', 'is', null).execute();
    // Decision 76: the plates' consent ends with the account; the unpaid free-flow tolls it kept go with it.
    await trx
      .updateTable('vehicles')
      .set({ free_flow_consent_at: null, free_flow_auto_pay: 0 })
      .where('driver_id', '=', driverId)
      .execute();
    await forgetUnpaidTolls(trx, { column: 'driver_id', id: driverId });
    await endMemberships(trx, driverId, driver.cpf_cnpj, at);
    const pendingTags = tags.filter((t) => t.released_at === null && tagState(t.status_code) !== 'cancelled').map((t) => t.id);
    for (const tagId of pendingTags) {
      await trx.insertInto('closure_tag_cancellations').values({ tag_id: tagId, driver_id: driverId, created_at: at }).execute();
    }

    await trx
      .updateTable('drivers')
      .set({
        name: CLOSED_ACCOUNT_NAME,
        cpf_cnpj: closedDocument(driverId),
        phone_number: '',
        password_hash: '',
        balance_alert_cents: null,
      })
      .where('id', '=', driverId)
      .execute();
    await trx
      .insertInto('closed_accounts')
      .values({
        driver_id: driverId,
        cpf_cnpj: driver.cpf_cnpj,
        closed_at: at,
        keep_until: closureKeepUntil(now).toISOString(),
        receipt_token_hash: tokenHash(token),
        receipt_expires_at: expiresAt.toISOString(),
      })
      .execute();
    return { pendingTags, cpfCnpj: driver.cpf_cnpj, expiresAt };
  }

  /** One tag through the operator gateway; a failure stays recorded (attempts, last error) for the next retry. */
  private async cancelTag(tagId: number): Promise<boolean> {
    const at = this.now().toISOString();
    try {
      await this.tags.cancelForClosedAccount(tagId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error({ err: error, tagId }, 'tag de conta encerrada não cancelada na operadora; repita com encerramento:tags');
      await this.db.kysely
        .updateTable('closure_tag_cancellations')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: reason.slice(0, 500) }))
        .where('tag_id', '=', tagId)
        .execute();
      return false;
    }
    await this.db.kysely
      .updateTable('closure_tag_cancellations')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), cancelled_at: at, last_error: null }))
      .where('tag_id', '=', tagId)
      .execute();
    return true;
  }
}

function throwIfBlocked(blockers: readonly ClosureBlocker[]): void {
  if (blockers.length > 0) throw refuse.conflict(accountClosureMessages.blocked(blockers.map((b) => b.mensagem).join(' ')));
}

/**
 * Decision 77: a closed account's memberships end with it (the person's in companies, and a closed
 * company's members), their vehicles unassigned, and the CPFs kept on them masked, as the audit
 * trail keeps them: what stays is the record of who was a member, not a document to find them by.
 */
async function endMemberships(trx: Trx, driverId: number, document: string, at: string): Promise<void> {
  const theirs = (eb: ExpressionBuilder<Database, 'company_members'>) =>
    eb.or([eb('person_id', '=', driverId), eb('company_id', '=', driverId), eb('cpf', '=', document)]);
  const rows = await trx.selectFrom('company_members').select(['id', 'cpf', 'state']).where(theirs).execute();
  if (rows.length === 0) return;
  await trx
    .deleteFrom('vehicle_drivers')
    .where(
      'member_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  for (const r of rows) {
    const live = r.state === 'convidado' || r.state === 'ativo';
    await trx
      .updateTable('company_members')
      .set({ cpf: /^\d{11}$/.test(r.cpf) ? maskCpfCnpj(r.cpf) : r.cpf, ...(live ? { state: 'removido' as const, ended_at: at } : {}) })
      .where('id', '=', r.id)
      .execute();
  }
}
