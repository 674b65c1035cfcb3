import { driverAccounts } from '../statement/accounts.js';
import { ACCOUNT_NAMES, allAtOnce, byTimeAndId, countOf, countRows, DATA_CHUNK_ROWS, type KindsOf, iso, pagesOf, reais } from './pages.js';

/** Money in the ZIP: every movement, the Pix purchases, the withdrawals and the automatic top-ups. */
export const MONEY_KINDS: KindsOf<'movements' | 'purchases' | 'withdrawals' | 'automaticTopUps' | 'automaticTopUpCycles'> = {
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
            .select([
              'id',
              'account_id',
              'amount_cents',
              'origin',
              'event',
              'place_name',
              'is_third',
              'reference',
              'vpo_id',
              'vehicle_id',
              'cost_centre_id',
              'created_at',
            ])
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
          veiculoId: r.vehicle_id,
          centroDeCustoId: r.cost_centre_id,
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
