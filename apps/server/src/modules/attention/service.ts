import type { AttentionNotice, StatementTransaction } from '@portal/contract';
import {
  billingPeriod,
  budgetPercent,
  centsToReais,
  changedFieldsText,
  CONTEST_WINDOW_DAYS,
  formatBrl,
  formatDateTime,
  PAYOUT_NOTICE_DAYS,
  payoutNoticeMessages,
  pixKeyDisplay,
  profileMessages,
  serverMessages,
  TAG_MONTHLY_FEE_CENTS,
  TAG_STATUS,
  vehicleBudgetMessages,
  VPO_OPEN_STATUSES,
} from '@portal/domain';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { toIso } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { effectiveAlertCents } from '../settings/service.js';
import type { StatementService } from '../statement/service.js';
import { possibleDoubleCharges } from '../passages/queries.js';
import { failedCycleNotices } from '../pix-automatic/notices.js';
import { profileChangesSince } from '../profile/queries.js';

/** The three newest statement entries the dashboard shows. */
const LAST_MOVEMENTS = 3;

/** Tags of the driver blocked for an unpaid monthly fee (founding decision 13: status 204), by plate. */
async function feeBlockedTags(db: Kysely<Database>, driverId: number): Promise<AttentionNotice[]> {
  const rows = await db
    .selectFrom('tags')
    .innerJoin('vehicles', 'vehicles.id', 'tags.vehicle_id')
    .select(['tags.serial_number', 'vehicles.license_plate'])
    .where('tags.driver_id', '=', driverId)
    .where('tags.deleted_at', 'is', null)
    .where('tags.status_code', '=', TAG_STATUS.blockedUnpaidFee)
    .orderBy('vehicles.license_plate')
    .execute();
  return rows.map((r) => ({
    tipo: 'tag-bloqueada',
    Mensagem: serverMessages.attention.tagBlockedForFee(r.license_plate),
    placa: r.license_plate,
    serialNumber: r.serial_number,
  }));
}

/**
 * The own balance against the driver's alert level (R$ 50,00 until chosen): one row read. Below zero
 * it is its own notice (issue 25), whatever the level: what a negative balance means for the next
 * passage and the tag's month, not only that it is low.
 */
async function lowBalance(db: Kysely<Database>, driverId: number): Promise<AttentionNotice[]> {
  const row = await db
    .selectFrom('drivers')
    .select((eb) => [
      'drivers.balance_alert_cents',
      eb
        .selectFrom('accounts')
        .select('balance_cents')
        .whereRef('accounts.driver_id', '=', 'drivers.id')
        .where('accounts.kind', '=', 'own')
        .as('own_cents'),
    ])
    .where('drivers.id', '=', driverId)
    .executeTakeFirst();
  const level = effectiveAlertCents(row?.balance_alert_cents);
  const balance = Number(row?.own_cents ?? 0);
  if (balance < 0) {
    return [
      {
        tipo: 'saldo-negativo',
        Mensagem: serverMessages.attention.negativeBalance(formatBrl(balance), formatBrl(TAG_MONTHLY_FEE_CENTS)),
        saldo: centsToReais(balance),
      },
    ];
  }
  if (balance >= level) return [];
  return [
    {
      tipo: 'saldo-baixo',
      Mensagem: serverMessages.attention.lowBalance(formatBrl(level)),
      saldo: centsToReais(balance),
      nivelAlerta: centsToReais(level),
    },
  ];
}

/** Pix purchases still waiting for their payment and not expired, the first to expire first. */
async function pendingPurchases(db: Kysely<Database>, driverId: number, now: Date): Promise<AttentionNotice[]> {
  const rows = await db
    .selectFrom('pix_charges')
    .select(['id', 'amount_cents', 'expires_at'])
    .where('driver_id', '=', driverId)
    .where('status', '=', 'PENDING')
    .where('expires_at', '>', now.toISOString())
    // Decision 58: a Pix Automático cycle is debited by the bank, not paid by the driver.
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('pix_automatic_cycles').select('charge_id').whereRef('pix_automatic_cycles.charge_id', '=', 'pix_charges.id'))),
    )
    .orderBy('expires_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    tipo: 'compra-pendente',
    Mensagem: serverMessages.attention.pendingPurchase(formatBrl(Number(r.amount_cents))),
    cobrancaId: r.id,
    valor: centsToReais(Number(r.amount_cents)),
    expiraEm: toIso(r.expires_at),
  }));
}

/** Decision 44: the Pix keys saved and the payouts of the last PAYOUT_NOTICE_DAYS, newest first. */
async function payoutActivity(db: Kysely<Database>, driverId: number, now: Date): Promise<AttentionNotice[]> {
  const since = new Date(now.getTime() - PAYOUT_NOTICE_DAYS * 86_400_000).toISOString();
  const [keys, payouts] = await Promise.all([
    db
      .selectFrom('pix_keys')
      .select(['id', 'key_type', 'key', 'created_at'])
      .where('driver_id', '=', driverId)
      .where('created_at', '>=', since)
      .execute(),
    db
      .selectFrom('withdrawals')
      .select(['id', 'amount_cents', 'pix_key_type', 'pix_key', 'status', 'created_at'])
      .where('driver_id', '=', driverId)
      .where('created_at', '>=', since)
      .execute(),
  ]);
  const notices: { at: string; notice: AttentionNotice }[] = [
    ...keys.map((k) => {
      const at = toIso(k.created_at);
      return {
        at,
        notice: {
          tipo: 'chave-pix-nova' as const,
          Mensagem: payoutNoticeMessages.keySaved(pixKeyDisplay(k.key_type, k.key), formatDateTime(at)),
          chaveId: Number(k.id),
          salvaEm: at,
        },
      };
    }),
    ...payouts.map((w) => {
      const at = toIso(w.created_at);
      const text = payoutNoticeMessages.withdrawal(
        formatBrl(Number(w.amount_cents)),
        pixKeyDisplay(w.pix_key_type, w.pix_key),
        formatDateTime(at),
        payoutNoticeMessages.withdrawalStatus[w.status],
      );
      return {
        at,
        notice: {
          tipo: 'saque' as const,
          Mensagem: text,
          saqueId: w.id,
          valor: centsToReais(Number(w.amount_cents)),
          status: w.status,
          criadoEm: at,
        },
      };
    }),
  ];
  return notices.sort((a, b) => b.at.localeCompare(a.at)).map((n) => n.notice);
}

/** Issue 35: the driver's name or phone corrected in the last PAYOUT_NOTICE_DAYS, newest first (a change a thief made is seen). */
async function profileChanges(db: Kysely<Database>, driverId: number, now: Date): Promise<AttentionNotice[]> {
  const changes = await profileChangesSince(db, driverId, new Date(now.getTime() - PAYOUT_NOTICE_DAYS * 86_400_000));
  return changes.map((c) => ({
    tipo: 'dados-alterados',
    Mensagem: profileMessages.changedNotice(changedFieldsText(c.fields), formatDateTime(c.changedAt)),
    alteracaoId: c.id,
    campos: c.fields,
    alteradoEm: c.changedAt,
  }));
}

/**
 * Decision 56: passages flagged on arrival as a possible double charge, still inside the contest
 * window and never contested, the newest first: the driver contests one in a tap.
 */
async function possibleDuplicates(db: Kysely<Database>, driverId: number, now: Date): Promise<AttentionNotice[]> {
  const since = new Date(now.getTime() - CONTEST_WINDOW_DAYS * 86_400_000).toISOString();
  const rows = await possibleDoubleCharges(db, driverId, since)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('contests').select('contests.id').whereRef('contests.passage_id', '=', 'passages.id'))),
    )
    .orderBy('passages.id', 'desc')
    .limit(POSSIBLE_DUPLICATE_NOTICES_MAX)
    .execute();
  return rows.map((r) => ({
    tipo: 'cobranca-duplicada',
    Mensagem: serverMessages.attention.possibleDuplicate(
      r.place_name,
      formatBrl(Number(r.amount_cents)),
      formatDateTime(toIso(r.occurred_at)),
    ),
    passagemId: r.id,
    praca: r.place_name,
    valor: centsToReais(Number(r.amount_cents)),
    dataPassagem: toIso(r.occurred_at),
  }));
}

/**
 * Decision 78: the company's vehicles whose month reached 80 % of their budget or more, the most
 * spent first (vehicle_budgets_company_idx; a driver's own account has none).
 */
async function budgetNotices(db: Kysely<Database>, companyId: number, now: Date): Promise<AttentionNotice[]> {
  const period = billingPeriod(now);
  const rows = await db
    .selectFrom('vehicle_budgets as b')
    .innerJoin('vehicles as v', 'v.id', 'b.vehicle_id')
    .innerJoin('vehicle_month_spend as s', (join) => join.onRef('s.vehicle_id', '=', 'b.vehicle_id').on('s.period', '=', period))
    .select((eb) => [
      'b.vehicle_id',
      'b.monthly_cents',
      's.spent_cents',
      'v.license_plate',
      eb
        .exists(
          eb
            .selectFrom('budget_blocks as k')
            .select('k.id')
            .whereRef('k.vehicle_id', '=', 'b.vehicle_id')
            .where('k.state', '=', 'bloqueada'),
        )
        .as('blocked'),
    ])
    .where('b.company_id', '=', companyId)
    .where('v.deleted_at', 'is', null)
    .where(sql<boolean>`s.spent_cents * 100 >= b.monthly_cents * 80`)
    .execute();
  return rows
    .map((r) => {
      const budget = Number(r.monthly_cents);
      const spent = Number(r.spent_cents);
      const percent = budgetPercent(budget, spent);
      const blocked = Boolean(Number(r.blocked));
      return {
        tipo: 'orcamento-veiculo' as const,
        Mensagem: blocked
          ? vehicleBudgetMessages.blocked(r.license_plate)
          : vehicleBudgetMessages.reached(r.license_plate, percent, formatBrl(spent), formatBrl(budget)),
        veiculoId: r.vehicle_id,
        placa: r.license_plate,
        percentual: percent,
        gasto: centsToReais(spent),
        orcamento: centsToReais(budget),
        bloqueada: blocked,
      };
    })
    .sort((a, b) => b.percentual - a.percentual || a.placa.localeCompare(b.placa));
}

/** At most this many double-charge notices at once: the statement lists the rest. */
const POSSIBLE_DUPLICATE_NOTICES_MAX = 5;

/** Decision 52: the driver's VPOs that ran short (open, or closed in the last days), the newest first. */
async function shortVpos(db: Kysely<Database>, driverId: number, now: Date): Promise<AttentionNotice[]> {
  const since = new Date(now.getTime() - PAYOUT_NOTICE_DAYS * 86_400_000).toISOString();
  const rows = await db
    .selectFrom('vpos')
    .innerJoin('partners', 'partners.id', 'vpos.partner_id')
    .select(['vpos.id', 'vpos.short_cents', 'partners.name'])
    .where('vpos.driver_id', '=', driverId)
    .where('vpos.short_cents', '>', 0)
    .where((eb) => eb.or([eb('vpos.status', 'in', [...VPO_OPEN_STATUSES]), eb('vpos.closed_at', '>=', since)]))
    .orderBy('vpos.id', 'desc')
    .execute();
  return rows.map((r) => ({
    tipo: 'vpo-insuficiente',
    Mensagem: serverMessages.attention.shortVpo(r.name, formatBrl(Number(r.short_cents))),
    vpoId: String(r.id),
    embarcador: r.name,
    pagoPeloSaldo: centsToReais(Number(r.short_cents)),
  }));
}

/**
 * What the dashboard asks the driver to look at, in this order: tags blocked for an unpaid fee,
 * a balance below the alert level, possible double charges (decision 56), VPOs that ran short, purchases waiting for their Pix, then the last days' new Pix
 * keys and payouts, and corrections of the driver's name or phone. Indexed reads of the driver's own rows (tags_driver_live, the drivers and
 * accounts keys, pix_charges_driver_idx, pix_keys_driver_key, withdrawals_driver_created_idx).
 */
async function attentionNotices(db: Kysely<Database>, driverId: number, now: Date): Promise<AttentionNotice[]> {
  const [tags, budgets, balance, possibleDuplicateNotices, vpos, topUps, pending, payouts, corrections] = await Promise.all([
    feeBlockedTags(db, driverId),
    budgetNotices(db, driverId, now),
    lowBalance(db, driverId),
    possibleDuplicates(db, driverId, now),
    shortVpos(db, driverId, now),
    failedCycleNotices(db, driverId, now),
    pendingPurchases(db, driverId, now),
    payoutActivity(db, driverId, now),
    profileChanges(db, driverId, now),
  ]);
  return [...tags, ...budgets, ...balance, ...possibleDuplicateNotices, ...vpos, ...topUps, ...pending, ...payouts, ...corrections];
}

/** The dashboard's notices and last movements (built once in services.ts), their windows on the server's clock. */
export class AttentionService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly statement: StatementService,
    private readonly now: () => Date,
  ) {}

  async forDriver(driverId: number): Promise<{ notices: AttentionNotice[]; lastMovements: StatementTransaction[] }> {
    const now = this.now();
    const [notices, page] = await Promise.all([
      attentionNotices(this.db, driverId, now),
      this.statement.page(driverId, 1, { periodo: 'tudo' }, now),
    ]);
    return { notices, lastMovements: page.transactions.slice(0, LAST_MOVEMENTS) };
  }
}
