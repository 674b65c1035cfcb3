import { driverRowsAfter, allAtOnce, byNumericId, countOf, countRows, DATA_CHUNK_ROWS, type KindsOf, iso, reais } from './pages.js';

/** Vehicles and tags in the ZIP, with the tags' fees and use per month. */
export const VEHICLE_KINDS: KindsOf<'vehicles' | 'tags' | 'tagFees' | 'tagUsage'> = {
  vehicles: {
    tables: ['vehicles'],
    count: countRows('vehicles'),
    records: (db, driverId) =>
      byNumericId(driverRowsAfter(db, 'vehicles', driverId), (r) => ({
        id: r.id,
        placa: r.license_plate,
        cpfCnpjAntt: r.cpf_cnpj_antt,
        rntrcAntt: r.rntrc_antt,
        eixos: r.axles,
        tipoVeiculo: r.vehicle_type,
        modelo: r.model_id,
        cadastradoEm: iso(r.created_at),
        excluidoEm: iso(r.deleted_at),
        pedagioSemCancelaDesde: iso(r.free_flow_consent_at),
        pagamentoAutomaticoSemCancela: r.free_flow_auto_pay === 1,
      })),
  },
  tags: {
    tables: ['tags'],
    count: countRows('tags'),
    records: (db, driverId) =>
      byNumericId(driverRowsAfter(db, 'tags', driverId), (r) => ({
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
      })),
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
};
