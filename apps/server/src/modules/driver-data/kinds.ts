import { centsToReais, type DriverDataKind, STATEMENT_ACCOUNT_OF_KIND } from '@portal/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, PassagePaymentsTable } from '../../db/schema.js';
import { driverAccounts } from '../statement/accounts.js';

/** One record of a file, with Portuguese keys (the API's language); null where the portal holds nothing. */
export type DataRecord = Record<string, unknown>;

/** Rows read per query: a driver with 100,000 movements costs 100 short index range reads. */
const DATA_CHUNK_ROWS = 1_000;

export interface DataKindReader {
  /** The tables whose rows of the driver this file carries (the completeness test reads them). */
  tables: readonly (keyof Database)[];
  count(db: Kysely<Database>, driverId: number, since: string): Promise<number>;
  /** The records in chunks, read as the ZIP takes them: never the whole kind in memory. */
  records(db: Kysely<Database>, driverId: number, since: string): AsyncIterable<DataRecord[]>;
}

/**
 * Tables that hold a driver's rows but are not a file of their own, and why. Columns left out of
 * an exported table are named in its reader (the password hash, a session's token hash, a push
 * subscription's keys).
 */
export const TABLES_NOT_EXPORTED: Readonly<Partial<Record<keyof Database, string>>> = {
  accounts: 'the balances are in cadastro.json; the accounts themselves are ids',
  ledger_entry_counts: 'sums per month, day and hour derived from movimentacoes.json',
  driver_vpo_counters: 'a count derived from vpos.json',
  idempotency_keys: "copies of the portal's own answers to a repeated request, kept a day",
  closed_accounts: 'rows of a closed account, which no longer signs in (its closing receipt tells what is kept)',
  closure_tag_cancellations: 'rows of a closed account, which no longer signs in (its closing receipt tells what is kept)',
};

/** PostgreSQL reads a Date; SQLite the ISO text the portal wrote (nowIso), passed on as it is. */
const iso = (value: Date | string | null): string | null =>
  value === null ? null : typeof value === 'string' ? value : value.toISOString();
const reais = (cents: number | null): number | null => (cents === null ? null : centsToReais(cents));
/** The tables with a driver_id column. */
type DriverTable = { [T in keyof Database]: Database[T] extends { driver_id: number } ? T : never }[keyof Database];

/** How many rows of a table are the driver's (its driver_id index). */
const countRows =
  (table: DriverTable): DataKindReader['count'] =>
  async (db, driverId) =>
    Number(
      (await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where driver_id = ${driverId}`.execute(db)).rows[0]
        ?.n ?? 0,
    );

const countOf = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }): Promise<number> =>
  Number((await query.executeTakeFirstOrThrow()).n);

/** Keyset pages of rows by a unique, ordered key (an id, a text id, a (time, id) pair). */
async function* keysetPages<R, K>(first: K, keyOf: (row: R) => K, page: (after: K) => Promise<R[]>): AsyncGenerator<R[]> {
  let after = first;
  for (;;) {
    const rows = await page(after);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < DATA_CHUNK_ROWS || last === undefined) return;
    after = keyOf(last);
  }
}

/** keysetPages, each row shaped for the file. */
async function* pagesOf<R, K>(
  first: K,
  keyOf: (row: R) => K,
  page: (after: K) => Promise<R[]>,
  shape: (row: R) => DataRecord,
): AsyncGenerator<DataRecord[]> {
  for await (const rows of keysetPages(first, keyOf, page)) yield rows.map(shape);
}

const byNumericId = <R extends { id: number | string }>(page: (after: number) => Promise<R[]>, shape: (row: R) => DataRecord) =>
  pagesOf(0, (row: R) => Number(row.id), page, shape);

/** After this row in (time, id) order: the order of an index (driver_id, time, id), read without a sort. */
type TimeKey = readonly [Date | string, number] | null;
const byTimeAndId = <R extends { id: number | string }>(
  page: (after: TimeKey) => Promise<R[]>,
  timeOf: (row: NoInfer<R>) => Date | string,
  shape: (row: NoInfer<R>) => DataRecord,
) => pagesOf<R, TimeKey>(null, (row) => [timeOf(row), Number(row.id)], page, shape);

/** A small kind read at once (a driver has a handful of these). */
async function* allAtOnce<R>(rows: () => Promise<R[]>, shape: (row: R) => DataRecord): AsyncGenerator<DataRecord[]> {
  const all = await rows();
  if (all.length > 0) yield all.map(shape);
}

const ACCOUNT_NAMES = STATEMENT_ACCOUNT_OF_KIND;

const passagePayment = (r: Selectable<PassagePaymentsTable>): DataRecord => ({
  passagemId: r.passage_id,
  movimentacaoId: Number(r.entry_id),
  conta: ACCOUNT_NAMES[r.account],
  vpoId: r.vpo_id,
  pago: reais(r.paid_cents),
  devolvido: reais(r.refunded_cents),
});

/** Every kind of the ZIP; the keys are DRIVER_DATA_KINDS', which names the files. */
export const DATA_KINDS: Readonly<Record<DriverDataKind, DataKindReader>> = {
  profile: {
    tables: ['drivers', 'profile_changes'],
    count: async () => 1,
    async *records(db, driverId) {
      const driver = await db
        .selectFrom('drivers')
        .select(['id', 'name', 'cpf_cnpj', 'phone_number', 'created_at', 'balance_alert_cents'])
        .where('id', '=', driverId)
        .executeTakeFirstOrThrow();
      const balances = await db.selectFrom('accounts').select(['kind', 'balance_cents']).where('driver_id', '=', driverId).execute();
      const changes = await db
        .selectFrom('profile_changes')
        .select(['fields', 'changed_at'])
        .where('driver_id', '=', driverId)
        .orderBy('id')
        .execute();
      const balanceOf = (kind: string) => reais(balances.find((b) => b.kind === kind)?.balance_cents ?? 0);
      yield [
        {
          id: driver.id,
          nome: driver.name,
          cpfCnpj: driver.cpf_cnpj,
          telefone: driver.phone_number,
          cadastradoEm: iso(driver.created_at),
          nivelAlertaSaldo: reais(driver.balance_alert_cents),
          saldos: { saldo: balanceOf('own'), saldoTerceiro: balanceOf('third'), vpo: balanceOf('vpo') },
          correcoes: changes.map((c) => ({ campos: c.fields.split(','), em: iso(c.changed_at) })),
        },
      ];
    },
  },
  terms: {
    tables: ['term_decisions'],
    count: countRows('term_decisions'),
    records: (db, driverId) =>
      byNumericId(
        (after) =>
          db
            .selectFrom('term_decisions')
            .innerJoin('terms', 'terms.id', 'term_decisions.term_id')
            .select(['term_decisions.id', 'terms.version', 'terms.file_name', 'term_decisions.action', 'term_decisions.decided_at'])
            .where('term_decisions.driver_id', '=', driverId)
            .where('term_decisions.id', '>', after)
            .orderBy('term_decisions.id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({ versao: r.version, arquivo: r.file_name, decisao: r.action, em: iso(r.decided_at) }),
      ),
  },
  sessions: {
    tables: ['sessions'],
    count: (db, driverId, since) =>
      countOf(
        db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('driver_id', '=', driverId)
          .where('created_at', '>=', since),
      ),
    records: (db, driverId, since) =>
      byNumericId(
        (after) =>
          db
            .selectFrom('sessions')
            // Never the token's hash: it proves nothing about the driver and guards the session.
            .select(['id', 'created_at', 'expires_at', 'revoked_at'])
            .where('driver_id', '=', driverId)
            .where('created_at', '>=', since)
            .where('id', '>', after)
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({ id: Number(r.id), iniciadaEm: iso(r.created_at), validaAte: iso(r.expires_at), encerradaEm: iso(r.revoked_at) }),
      ),
  },
  access: {
    tables: ['access_records'],
    count: (db, driverId, since) =>
      countOf(
        db
          .selectFrom('access_records')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('driver_id', '=', driverId)
          .where('occurred_at', '>=', since),
      ),
    records: (db, driverId, since) =>
      byTimeAndId(
        (after) =>
          db
            .selectFrom('access_records')
            .select(['id', 'action', 'ip_address', 'occurred_at'])
            .where('driver_id', '=', driverId)
            .where('occurred_at', '>=', since)
            .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('occurred_at', 'id'), '>', eb.tuple(after![0], after![1]))))
            .orderBy('occurred_at')
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => r.occurred_at,
        (r) => ({ acao: r.action, enderecoIp: r.ip_address, em: iso(r.occurred_at) }),
      ),
  },
  pixKeys: {
    tables: ['pix_keys'],
    count: countRows('pix_keys'),
    records: (db, driverId) =>
      allAtOnce(
        () => db.selectFrom('pix_keys').select(['key_type', 'key', 'created_at']).where('driver_id', '=', driverId).orderBy('id').execute(),
        (r) => ({ tipo: r.key_type, chave: r.key, salvaEm: iso(r.created_at) }),
      ),
  },
  payoutLimits: {
    tables: ['payout_limits'],
    count: countRows('payout_limits'),
    records: (db, driverId) =>
      allAtOnce(
        () =>
          db
            .selectFrom('payout_limits')
            .select(['kind', 'value_cents', 'pending_cents', 'pending_at'])
            .where('driver_id', '=', driverId)
            .orderBy('kind')
            .execute(),
        (r) => ({ limite: r.kind, valor: reais(r.value_cents), aumentoPedido: reais(r.pending_cents), aumentoValeEm: iso(r.pending_at) }),
      ),
  },
  vehicles: {
    tables: ['vehicles'],
    count: countRows('vehicles'),
    records: (db, driverId) =>
      byNumericId(
        (after) =>
          db
            .selectFrom('vehicles')
            .selectAll()
            .where('driver_id', '=', driverId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({
          id: r.id,
          placa: r.license_plate,
          cpfCnpjAntt: r.cpf_cnpj_antt,
          rntrcAntt: r.rntrc_antt,
          eixos: r.axles,
          tipoVeiculo: r.vehicle_type,
          modelo: r.model_id,
          cadastradoEm: iso(r.created_at),
          excluidoEm: iso(r.deleted_at),
        }),
      ),
  },
  tags: {
    tables: ['tags'],
    count: countRows('tags'),
    records: (db, driverId) =>
      byNumericId(
        (after) =>
          db
            .selectFrom('tags')
            .selectAll()
            .where('driver_id', '=', driverId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({
          id: r.id,
          veiculoId: r.vehicle_id,
          numeroSerie: r.serial_number,
          operadoraCnpj: r.operator_cnpj,
          propriedade: r.ownership_type,
          codigoSituacao: r.status_code,
          ativadaEm: iso(r.activated_at),
          mensalidadePagaAte: r.paid_through,
          cadastradaEm: iso(r.created_at),
          excluidaEm: iso(r.deleted_at),
          devolvidaEm: iso(r.released_at),
        }),
      ),
  },
  tagFees: {
    tables: ['tag_fee_charges'],
    count: (db, driverId) =>
      countOf(
        db
          .selectFrom('tag_fee_charges')
          .innerJoin('tags', 'tags.id', 'tag_fee_charges.tag_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tags.driver_id', '=', driverId),
      ),
    records: (db, driverId) =>
      byNumericId(
        (after) =>
          db
            .selectFrom('tag_fee_charges')
            .innerJoin('tags', 'tags.id', 'tag_fee_charges.tag_id')
            .select([
              'tag_fee_charges.id',
              'tag_fee_charges.tag_id',
              'tags.serial_number',
              'tag_fee_charges.period',
              'tag_fee_charges.amount_cents',
              'tag_fee_charges.status',
              'tag_fee_charges.created_at',
              'tag_fee_charges.paid_at',
              'tag_fee_charges.waived_at',
            ])
            .where('tags.driver_id', '=', driverId)
            .where('tag_fee_charges.id', '>', after)
            .orderBy('tag_fee_charges.id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({
          tagId: r.tag_id,
          numeroSerie: r.serial_number,
          mes: r.period,
          valor: reais(r.amount_cents),
          situacao: r.status,
          cobradaEm: iso(r.created_at),
          pagaEm: iso(r.paid_at),
          dispensadaEm: iso(r.waived_at),
        }),
      ),
  },
  tagUsage: {
    tables: ['tag_month_usage'],
    count: (db, driverId) =>
      countOf(
        db
          .selectFrom('tag_month_usage')
          .innerJoin('tags', 'tags.id', 'tag_month_usage.tag_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tags.driver_id', '=', driverId),
      ),
    records: (db, driverId) =>
      allAtOnce(
        () =>
          db
            .selectFrom('tag_month_usage')
            .innerJoin('tags', 'tags.id', 'tag_month_usage.tag_id')
            .select(['tag_month_usage.tag_id', 'tag_month_usage.period', 'tag_month_usage.vpo_passages', 'tag_month_usage.other_passages'])
            .where('tags.driver_id', '=', driverId)
            .orderBy('tag_month_usage.tag_id')
            .orderBy('tag_month_usage.period')
            .execute(),
        (r) => ({ tagId: r.tag_id, mes: r.period, passagensPagasPorVpo: r.vpo_passages, outrasPassagens: r.other_passages }),
      ),
  },
  movements: {
    tables: ['ledger_entries'],
    count: countRows('ledger_entries'),
    // The statement's index (driver_id, created_at, id), in date order; the account's kind from the driver's three accounts.
    async *records(db, driverId) {
      const kinds = await driverAccounts(db, driverId);
      yield* byTimeAndId(
        (after) =>
          db
            .selectFrom('ledger_entries')
            .select(['id', 'account_id', 'amount_cents', 'origin', 'event', 'place_name', 'is_third', 'reference', 'vpo_id', 'created_at'])
            .where('driver_id', '=', driverId)
            .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after![0], after![1]))))
            .orderBy('created_at')
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => r.created_at,
        (r) => ({
          id: Number(r.id),
          conta: ACCOUNT_NAMES[kinds.get(r.account_id) ?? 'own'],
          valor: reais(r.amount_cents),
          origem: r.origin,
          evento: r.event,
          local: r.place_name,
          outraPlataforma: r.is_third === 1,
          referencia: r.reference,
          vpoId: r.vpo_id,
          em: iso(r.created_at),
        }),
      );
    },
  },
  purchases: {
    tables: ['pix_charges'],
    count: countRows('pix_charges'),
    records: (db, driverId) =>
      pagesOf(
        '',
        (r: { id: string }) => r.id,
        (after) =>
          db
            .selectFrom('pix_charges')
            // Not the QR code's image: it is the Pix code (pixCopiaECola) drawn.
            .select([
              'id',
              'amount_cents',
              'payload',
              'status',
              'created_at',
              'expires_at',
              'received_at',
              'refunded_cents',
              'refunded_at',
              'provider_cancelled_at',
            ])
            .where('driver_id', '=', driverId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({
          id: r.id,
          valor: reais(r.amount_cents),
          pixCopiaECola: r.payload,
          situacao: r.status,
          criadaEm: iso(r.created_at),
          expiraEm: iso(r.expires_at),
          pagaEm: iso(r.received_at),
          devolvido: reais(r.refunded_cents),
          devolvidaEm: iso(r.refunded_at),
          canceladaNoProvedorEm: iso(r.provider_cancelled_at),
        }),
      ),
  },
  withdrawals: {
    tables: ['withdrawals'],
    count: countRows('withdrawals'),
    records: (db, driverId) =>
      pagesOf(
        '',
        (r: { id: string }) => r.id,
        (after) =>
          db
            .selectFrom('withdrawals')
            .selectAll()
            .where('driver_id', '=', driverId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({
          id: r.id,
          valor: reais(r.amount_cents),
          tipoChave: r.pix_key_type,
          chavePix: r.pix_key,
          descricao: r.description,
          situacao: r.status,
          motivoFalha: r.failure_reason,
          recebedor: r.receiver_name,
          documentoRecebedor: r.receiver_document,
          pedidoEm: iso(r.created_at),
          concluidoEm: iso(r.completed_at),
        }),
      ),
  },
  vpos: {
    tables: ['vpos'],
    count: countRows('vpos'),
    records: (db, driverId) =>
      byNumericId(
        (after) =>
          db
            .selectFrom('vpos')
            .innerJoin('partners', 'partners.id', 'vpos.partner_id')
            .selectAll('vpos')
            .select('partners.name as partner_name')
            .where('vpos.driver_id', '=', driverId)
            .where('vpos.id', '>', after)
            .orderBy('vpos.id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({
          id: r.id,
          emissor: r.partner_name,
          idNoEmissor: r.external_id,
          idAntt: r.antt_id,
          documentoEmbarcador: r.shipper_document,
          numeroSerie: r.serial_number,
          placa: r.plate,
          rntrc: r.rntrc,
          eixos: r.axles,
          origem: r.origin,
          destino: r.destination,
          inicioViagem: iso(r.trip_start),
          fimViagem: iso(r.trip_end),
          situacao: r.status,
          valor: reais(r.value_cents),
          reservado: reais(r.held_cents),
          usado: reais(r.used_cents),
          restante: reais(r.left_cents),
          devolvido: reais(r.refunded_cents),
          faltouPagoPeloSaldo: reais(r.short_cents),
          recebidoEm: iso(r.created_at),
          atualizadoEm: iso(r.updated_at),
          encerradoEm: iso(r.closed_at),
        }),
      ),
  },
  passages: {
    tables: ['passages'],
    count: countRows('passages'),
    records: (db, driverId) =>
      byNumericId(
        (after) =>
          db
            .selectFrom('passages')
            .selectAll()
            .where('driver_id', '=', driverId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({
          id: r.id,
          idNaOperadora: r.external_id,
          operadoraCnpj: r.operator_cnpj,
          tagId: r.tag_id,
          numeroSerie: r.serial_number,
          praca: r.place_name,
          ocorridaEm: iso(r.occurred_at),
          valor: reais(r.amount_cents),
          outraPlataforma: r.is_third === 1,
          possivelDuplicidadeDe: r.duplicate_of,
          recebidaEm: iso(r.created_at),
        }),
      ),
  },
  passagePayments: {
    tables: ['passage_payments'],
    count: (db, driverId) =>
      countOf(
        db
          .selectFrom('passage_payments')
          .innerJoin('passages', 'passages.id', 'passage_payments.passage_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('passages.driver_id', '=', driverId),
      ),
    // A chunk of the driver's passages (passages_driver_idx), then their payments (passage_payments_passage_idx).
    async *records(db, driverId) {
      const passages = keysetPages(
        0,
        (r: { id: number }) => r.id,
        (after) =>
          db
            .selectFrom('passages')
            .select('id')
            .where('driver_id', '=', driverId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
      );
      for await (const chunk of passages) {
        const payments = await db
          .selectFrom('passage_payments')
          .selectAll()
          .where(
            'passage_id',
            'in',
            chunk.map((p) => p.id),
          )
          .orderBy('passage_id')
          .orderBy('id')
          .execute();
        if (payments.length > 0) yield payments.map(passagePayment);
      }
    },
  },
  contests: {
    tables: ['contests'],
    count: countRows('contests'),
    records: (db, driverId) =>
      byNumericId(
        (after) =>
          db
            .selectFrom('contests')
            .selectAll()
            .where('driver_id', '=', driverId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({
          id: r.id,
          passagemId: r.passage_id,
          operadoraCnpj: r.operator_cnpj,
          motivo: r.reason,
          descricao: r.description,
          situacao: r.state,
          abertaEm: iso(r.opened_at),
          prazo: iso(r.due_at),
          respondidaEm: iso(r.answered_at),
          resposta: r.answer,
          valorDevolvido: reais(r.refund_cents),
          respondidaPor: r.answered_by,
        }),
      ),
  },
  pushDevices: {
    tables: ['push_subscriptions'],
    count: countRows('push_subscriptions'),
    records: (db, driverId) =>
      allAtOnce(
        () =>
          db
            .selectFrom('push_subscriptions')
            // Not p256dh and auth: the keys that encrypt each notification to the device.
            .select(['id', 'endpoint', 'created_at', 'last_success_at'])
            .where('driver_id', '=', driverId)
            .orderBy('id')
            .execute(),
        (r) => ({
          id: Number(r.id),
          servicoDeNotificacao: new URL(r.endpoint).origin,
          cadastradoEm: iso(r.created_at),
          ultimoEnvioEm: iso(r.last_success_at),
        }),
      ),
  },
  notices: {
    tables: ['notification_outbox'],
    count: countRows('notification_outbox'),
    records: (db, driverId) =>
      byNumericId(
        (after) =>
          db
            .selectFrom('notification_outbox')
            .select(['id', 'kind', 'payload', 'created_at', 'sent_at', 'gave_up_at'])
            .where('driver_id', '=', driverId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(DATA_CHUNK_ROWS)
            .execute(),
        (r) => ({
          tipo: r.kind,
          aviso: JSON.parse(r.payload) as unknown,
          criadoEm: iso(r.created_at),
          enviadoEm: iso(r.sent_at),
          naoEntregueEm: iso(r.gave_up_at),
        }),
      ),
  },
  automaticTopUps: {
    tables: ['pix_automatic_authorizations'],
    count: countRows('pix_automatic_authorizations'),
    records: (db, driverId) =>
      allAtOnce(
        () => db.selectFrom('pix_automatic_authorizations').selectAll().where('driver_id', '=', driverId).orderBy('created_at').execute(),
        (r) => ({
          id: r.id,
          situacao: r.status,
          frequencia: r.frequency,
          valor: reais(r.amount_cents),
          proximoDebito: r.next_due_date,
          criadaEm: iso(r.created_at),
          ativadaEm: iso(r.activated_at),
          encerradaEm: iso(r.ended_at),
          motivoDoFim: r.end_reason,
          substitui: r.replaces_id,
        }),
      ),
  },
  automaticTopUpCycles: {
    tables: ['pix_automatic_cycles'],
    count: (db, driverId) =>
      countOf(
        db
          .selectFrom('pix_automatic_cycles')
          .innerJoin('pix_automatic_authorizations', 'pix_automatic_authorizations.id', 'pix_automatic_cycles.authorization_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('pix_automatic_authorizations.driver_id', '=', driverId),
      ),
    records: (db, driverId) =>
      allAtOnce(
        () =>
          db
            .selectFrom('pix_automatic_cycles')
            .innerJoin('pix_automatic_authorizations', 'pix_automatic_authorizations.id', 'pix_automatic_cycles.authorization_id')
            .selectAll('pix_automatic_cycles')
            .where('pix_automatic_authorizations.driver_id', '=', driverId)
            .orderBy('pix_automatic_cycles.authorization_id')
            .orderBy('pix_automatic_cycles.number')
            .execute(),
        (r) => ({
          autorizacaoId: r.authorization_id,
          compraPixId: r.charge_id,
          numero: r.number,
          vencimento: r.due_date,
          situacao: r.status,
          motivoFalha: r.failure_reason,
          falhouEm: iso(r.failed_at),
          criadoEm: iso(r.created_at),
        }),
      ),
  },
};
