import type { Selectable } from 'kysely';
import type { PassagePaymentsTable } from '../../db/schema.js';
import {
  driverRowsAfter,
  ACCOUNT_NAMES,
  byNumericId,
  countOf,
  countRows,
  DATA_CHUNK_ROWS,
  type KindsOf,
  type DataRecord,
  iso,
  keysetPages,
  reais,
} from './pages.js';

const passagePayment = (r: Selectable<PassagePaymentsTable>): DataRecord => ({
  passagemId: r.passage_id,
  movimentacaoId: Number(r.entry_id),
  conta: ACCOUNT_NAMES[r.account],
  vpoId: r.vpo_id,
  pago: reais(r.paid_cents),
  devolvido: reais(r.refunded_cents),
});

/** Trips in the ZIP: VPOs, passages and what paid them, free-flow tolls, contests. */
export const TRIP_KINDS: KindsOf<'vpos' | 'passages' | 'passagePayments' | 'freeFlowTolls' | 'contests'> = {
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
      byNumericId(driverRowsAfter(db, 'passages', driverId), (r) => ({
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
      })),
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
  freeFlowTolls: {
    tables: ['free_flow_tolls'],
    count: countRows('free_flow_tolls'),
    records: (db, driverId) =>
      byNumericId(driverRowsAfter(db, 'free_flow_tolls', driverId), (r) => ({
        id: r.id,
        concessionariaId: r.partner_id,
        idNaConcessionaria: r.external_id,
        veiculoId: r.vehicle_id,
        placa: r.plate,
        portico: r.gantry,
        rodovia: r.highway,
        km: Number(r.km_milli) / 1000,
        sentido: r.direction,
        eixos: r.axles,
        valor: reais(r.amount_cents),
        ocorridoEm: iso(r.occurred_at),
        vencimento: r.due_day,
        recebidoEm: iso(r.created_at),
        pagoEm: iso(r.paid_at),
        pago: reais(r.paid_cents),
        autenticacao: r.authentication,
        canceladoEm: iso(r.cancelled_at),
        sinalizacao: r.flag,
      })),
  },
  contests: {
    tables: ['contests'],
    count: countRows('contests'),
    records: (db, driverId) =>
      byNumericId(driverRowsAfter(db, 'contests', driverId), (r) => ({
        id: r.id,
        passagemId: r.passage_id,
        pedagioSemCancelaId: r.toll_id,
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
      })),
  },
};
