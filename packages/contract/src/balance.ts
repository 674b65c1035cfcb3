import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { envelope } from './common.js';

/** Reais, at most 2 decimals (founding architecture §4). */
export const reais = z.lazy(() => z.number());

export const balanceResponse = z.lazy(() => envelope.unwrap().extend({ Saldo: reais, SaldoTerceiro: reais }));
export type BalanceResponse = z.infer<typeof balanceResponse>;

export const balanceApi = {
  balance: endpoint({
    method: 'GET',
    path: '/api/motorista/saldo',
    auth: true,
    capability: 'balance',
    summary: 'Saldo de pedágio e saldo em outras plataformas',
    response: balanceResponse,
  }),
};
