import { describe, expect, it } from 'vitest';
import { messages } from '@portal/domain';
import { api } from '../src/index.js';

const row = {
  transactionId: 1,
  placeName: 'Praça Jacareí',
  value: -22.4,
  created_at: '2026-11-20T12:00:00.000Z',
  event: null,
  origin: 'passagem-vpo',
  is_third: false,
  user_transaction: false,
  kind: 'vpo',
  receipt: null,
  vpo: { IdTransacao: '41', Embarcador: 'Transportes X', pagoPor: 'VPO' },
  passagem: null,
  conta: { tipo: 'VPO', vpoId: '41', embarcador: 'Transportes X', rota: null },
  saldoApos: 645.9,
  veiculo: { placa: 'FRT1A11', centroDeCusto: { codigo: 'OP-SUL', nome: 'Operação Sul' } },
};

const contest = {
  id: 3,
  passagem: {
    id: 9,
    externalId: 'p-9',
    serialNumber: '6032000011110001',
    pedagioSemCancela: false,
    placa: 'ABC1D23',
    praca: 'Praça Jacareí',
    valor: 22.4,
    dataPassagem: '2026-11-20T12:00:00.000Z',
    possivelDuplicada: false,
  },
  motivo: 'CATEGORIA',
  descricao: null,
  estado: 'ACEITA',
  atrasada: false,
  abertaEm: '2026-11-20T13:00:00.000Z',
  prazoResposta: '2026-11-27T13:00:00.000Z',
  respondidaEm: '2026-11-21T13:00:00.000Z',
  resposta: 'Categoria corrigida',
  valorDevolvido: 22.4,
};

describe('issue 33: the statement answer names each row’s account and the totals per account', () => {
  const response = api.statement.response;

  it('a row carries its account and that account’s balance after it; the page its totals per account', () => {
    const page = {
      Sucesso: true,
      Mensagem: 'ok',
      Transacoes: [row],
      Paginacao: { TotalPaginas: 1 },
      Totais: [
        { conta: row.conta, total: -22.4, outrosVpos: false },
        // Decision 83: the others' net, past the VPOs named.
        { conta: { tipo: 'VPO', vpoId: null, embarcador: null, rota: null }, total: -10, outrosVpos: true },
      ],
    };
    expect(response.parse(page)).toEqual(page);
    const { outrosVpos: _left, ...withoutFlag } = page.Totais[0]!;
    expect(response.safeParse({ ...page, Totais: [withoutFlag] }).success).toBe(false);
  });

  it.each(['conta', 'saldoApos', 'veiculo'] as const)('a row without %s is refused', (field) => {
    const { [field]: _left, ...without } = row;
    expect(
      response.safeParse({ Sucesso: true, Mensagem: 'ok', Transacoes: [without], Paginacao: { TotalPaginas: 1 }, Totais: [] }).success,
    ).toBe(false);
  });

  it('a page without totals, or an unknown account, is refused', () => {
    expect(response.safeParse({ Sucesso: true, Mensagem: 'ok', Transacoes: [], Paginacao: { TotalPaginas: 0 } }).success).toBe(false);
    expect(
      response.safeParse({
        Sucesso: true,
        Mensagem: 'ok',
        Transacoes: [{ ...row, conta: { ...row.conta, tipo: 'OUTRA' } }],
        Paginacao: { TotalPaginas: 1 },
        Totais: [],
      }).success,
    ).toBe(false);
  });
});

describe('issue 33: the driver’s contest says where its refund went; the operator’s does not', () => {
  const parts = [
    { destino: 'SALDO', embarcador: null, valor: 10 },
    { destino: 'VPO', embarcador: 'Transportes X', valor: 12.4 },
  ];

  it('the driver’s list and the opened contest carry the parts', () => {
    const list = { Sucesso: true, Mensagem: 'ok', Contestacoes: [{ ...contest, devolucoes: parts }], Paginacao: { TotalPaginas: 1 } };
    expect(api.driverContests.response.parse(list)).toEqual(list);
    expect(api.driverContests.response.safeParse({ ...list, Contestacoes: [contest] }).success).toBe(false);
    expect(api.openContest.response.safeParse({ Sucesso: true, Mensagem: 'ok', Contestacao: { ...contest, devolucoes: [] } }).success).toBe(
      true,
    );
    expect(
      api.driverContests.response.safeParse({ ...list, Contestacoes: [{ ...contest, devolucoes: [{ ...parts[0], destino: 'OUTRO' }] }] })
        .success,
    ).toBe(false);
  });

  it('the operator’s answer is the contest without them', () => {
    const parsed = api.partnerAnswerContest.response.parse({
      Sucesso: true,
      Mensagem: 'ok',
      Contestacao: { ...contest, devolucoes: parts },
    });
    expect(parsed.Contestacao).not.toHaveProperty('devolucoes');
  });
});

describe('decision 79: the statement by plate, cost centre or driver', () => {
  const query = api.statement.query;

  it('reads a plate as the portal writes it, and a centre or member id as a number', () => {
    expect(query.parse({ page: '1', placa: 'frt-1a11' })).toMatchObject({ placa: 'FRT1A11' });
    expect(query.parse({ page: '1', centro: '3' })).toMatchObject({ centro: 3 });
    expect(query.parse({ page: '1', motorista: '' })).not.toHaveProperty('motorista', '');
  });

  it('refuses two at once on the second, and an id that is not one', () => {
    const two = query.safeParse({ page: '1', placa: 'FRT1A11', centro: '3' });
    expect(two.success).toBe(false);
    expect(two.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['centro', messages.statement.oneWhoseFilter]]);
    expect(query.safeParse({ page: '1', centro: 'OP-SUL' }).success).toBe(false);
    expect(query.safeParse({ page: '1', motorista: '0' }).success).toBe(false);
  });
});
