import { PAID_STATUSES } from '../../adapters/pix/port.js';
import type { ListedTransfer, PixProvider } from '../../adapters/pix/port.js';
import { toIso } from '../../db/connection.js';
import type { Kysely } from 'kysely';
import type { Database, PixChargeRow, WithdrawalRow } from '../../db/schema.js';
import { sameTerms } from './transfer-match.js';

const TRANSFER_FAILED = new Set(['FAILED', 'CANCELLED']);
/** Payment statuses of a charge never paid (or removed before it was). */
const UNPAID = new Set(['PENDING', 'OVERDUE']);

/**
 * What the provider says became of a withdrawal's transfer (decision 60). `failed` with no transfer:
 * the provider holds none for it (it never arrived). `no-record`: the provider keeps no record of its
 * own (the local provider).
 */
export type TransferVerdict =
  | { kind: 'done'; transfer: ListedTransfer }
  | { kind: 'in-progress'; transfer: ListedTransfer }
  | { kind: 'failed'; transfer: ListedTransfer | null }
  | { kind: 'unclear'; why: string }
  | { kind: 'no-record' };

/** What the provider says the driver keeps of a charge: `creditedCents` (paid less refunded), by its status. */
export type PaymentVerdict =
  | { kind: 'settled'; creditedCents: number; status: string }
  | { kind: 'in-progress'; status: string }
  | { kind: 'unclear'; why: string }
  | { kind: 'no-record' };

/**
 * Asks the provider what became of a withdrawal or a charge, bound to the stored object as the
 * webhook is (decision 49): a stored transfer or payment must name our row by its externalReference;
 * a withdrawal with no transfer stored (its payout's answer never came) is looked up by reference,
 * and only a Pix of its value to its key counts (a reference alone proves nothing).
 * PixProviderUnavailable goes through to the caller.
 */
export class ProviderTruth {
  constructor(private readonly provider: PixProvider) {}

  /**
   * `listed`: the provider's transfers since the withdrawal was created, when the caller already
   * read them (pix:reconcile reads them once for every withdrawal); read here otherwise.
   */
  async transferOf(w: WithdrawalRow, listed?: ListedTransfer[] | null): Promise<TransferVerdict> {
    const stored = w.provider_transfer_id;
    if (stored) {
      const t = await this.provider.getTransfer(stored);
      if (t === null) return { kind: 'no-record' };
      if (t === 'missing') return { kind: 'unclear', why: `a transferência ${stored} não existe no provedor` };
      if (t.externalReference !== w.id) return { kind: 'unclear', why: `o provedor vincula a transferência ${stored} a outra referência` };
      return verdictOf([{ id: stored, ...t }]);
    }
    const all = listed === undefined ? await this.provider.transfersSince(new Date(toIso(w.created_at))) : listed;
    if (all === null) return { kind: 'no-record' };
    return verdictOf(all.filter((t) => t.externalReference === w.id && sameTerms(t, w)));
  }

  async paymentOf(c: PixChargeRow): Promise<PaymentVerdict> {
    const p = await this.provider.getPayment(c.provider_charge_id);
    if (p === null) return { kind: 'no-record' };
    if (p === 'missing') return { kind: 'unclear', why: `o pagamento ${c.provider_charge_id} não existe no provedor` };
    // Decision 58: the first Pix of a Pix Automático QR Code names the QR Code, not our id (it was bound when stored).
    const ours = p.externalReference === c.id || (p.externalReference === null && Boolean(p.pixQrCodeId));
    if (!ours) return { kind: 'unclear', why: `o provedor vincula o pagamento ${c.provider_charge_id} a outra referência` };
    if (p.deleted || UNPAID.has(p.status)) return { kind: 'settled', creditedCents: 0, status: p.deleted ? 'removida' : p.status };
    if (!PAID_STATUSES.has(p.status) && p.status !== 'REFUNDED') return { kind: 'in-progress', status: p.status };
    if (p.amountCents !== c.amount_cents) return { kind: 'unclear', why: `o provedor informa outro valor para o pagamento` };
    return { kind: 'settled', creditedCents: Math.max(0, p.amountCents - p.refundedCents), status: p.status };
  }
}

/** One DONE transfer pays the withdrawal; any still moving keeps it open; otherwise none paid it. */
function verdictOf(transfers: ListedTransfer[]): TransferVerdict {
  const done = transfers.filter((t) => t.status === 'DONE');
  if (done.length > 1) return { kind: 'unclear', why: `${done.length} transferências concluídas com a mesma referência` };
  if (done[0]) return { kind: 'done', transfer: done[0] };
  const moving = transfers.find((t) => !TRANSFER_FAILED.has(t.status));
  if (moving) return { kind: 'in-progress', transfer: moving };
  return { kind: 'failed', transfer: transfers.at(-1) ?? null };
}

/** What a withdrawal's or a charge's entries on the driver's own account add up to (inside the caller's transaction, when it has one). */
export async function netOf(db: Kysely<Database>, driverId: number, accountId: number, reference: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.sum<number | string | null>('amount_cents').as('net'))
    .where('driver_id', '=', driverId)
    .where('account_id', '=', accountId)
    .where('reference', '=', reference)
    .executeTakeFirst();
  return Number(row?.net ?? 0);
}

/** The own-account net a withdrawal's status means: paid out (-amount) or given back (0). */
export function withdrawalNet(status: 'DONE' | 'FAILED', amountCents: number): number {
  return status === 'DONE' ? -amountCents : 0;
}

/** What the driver's own account holds of a charge now (its credit less what was taken back). */
export async function creditedHere(db: Kysely<Database>, c: PixChargeRow): Promise<number> {
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where('driver_id', '=', c.driver_id)
    .where('kind', '=', 'own')
    .executeTakeFirstOrThrow();
  return netOf(db, c.driver_id, account.id, c.id);
}
