import { z } from 'zod';
import { MAX_BALANCE_ALERT_CENTS, messages, PROFILE_FIELDS } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime } from './common.js';
import { reais } from './balance.js';
import { statementTransaction } from './statement.js';

/** What the dashboard asks the driver to look at (issue 12), each with its Portuguese Mensagem. */
export const attentionNotice = z.lazy(() =>
  z.discriminatedUnion('tipo', [
    /** A tag blocked for an unpaid monthly fee (status 204): releasing it pays the fee. */
    z.object({ tipo: z.literal('tag-bloqueada'), Mensagem: z.string(), placa: z.string(), serialNumber: z.string() }),
    z.object({ tipo: z.literal('saldo-baixo'), Mensagem: z.string(), saldo: reais, nivelAlerta: reais }),
    /** Issue 25: the own balance below zero (instead of 'saldo-baixo'): passages still debited, the month's fee blocks the tag. */
    z.object({ tipo: z.literal('saldo-negativo'), Mensagem: z.string(), saldo: reais }),
    /** A Pix purchase still waiting for its payment (not expired). */
    z.object({ tipo: z.literal('compra-pendente'), Mensagem: z.string(), cobrancaId: z.string(), valor: reais, expiraEm: isoDateTime }),
    /** Decision 44: every Pix key saved in the last days, so that a key a thief saved is seen. */
    z.object({ tipo: z.literal('chave-pix-nova'), Mensagem: z.string(), chaveId: z.number().int(), salvaEm: isoDateTime }),
    /** Decision 44: every payout of the last days, with the way to its receipt. */
    z.object({
      tipo: z.literal('saque'),
      Mensagem: z.string(),
      saqueId: z.string(),
      valor: reais,
      status: z.enum(['PROCESSING', 'DONE', 'FAILED']),
      criadoEm: isoDateTime,
    }),
    /** Decision 52: a VPO that could not pay its trip's passages; the rest came from Saldo. */
    z.object({
      tipo: z.literal('vpo-insuficiente'),
      Mensagem: z.string(),
      vpoId: z.string(),
      embarcador: z.string(),
      pagoPeloSaldo: reais,
    }),
    /** Decision 58: a cycle of the recurring top-up by Pix Automático that the bank did not debit. */
    z.object({
      tipo: z.literal('recarga-automatica-falhou'),
      Mensagem: z.string(),
      autorizacaoId: z.string(),
      cicloId: z.string(),
      valor: reais,
      dataDebito: z.string(),
    }),
    /** Issue 35: the name or phone corrected in the last days, so that a change a thief made is seen. */
    z.object({
      tipo: z.literal('dados-alterados'),
      Mensagem: z.string(),
      alteracaoId: z.number().int(),
      campos: z.array(z.enum(PROFILE_FIELDS)),
      alteradoEm: isoDateTime,
    }),
    /** Decision 78: a company vehicle's month at 80 % of its budget or more (the Gestores and the Financeiro see it). */
    z.object({
      tipo: z.literal('orcamento-veiculo'),
      Mensagem: z.string(),
      veiculoId: z.number().int(),
      placa: z.string(),
      percentual: z.number().int(),
      gasto: reais,
      orcamento: reais,
      /** The tag is blocked by the budget now (only a Gestor releases it). */
      bloqueada: z.boolean(),
    }),
    /** Decision 56: a passage flagged on arrival as a possible double charge, not contested yet. */
    z.object({
      tipo: z.literal('cobranca-duplicada'),
      Mensagem: z.string(),
      passagemId: z.number().int(),
      praca: z.string(),
      valor: reais,
      dataPassagem: isoDateTime,
    }),
  ]),
);
export type AttentionNotice = z.infer<typeof attentionNotice>;

export const attentionResponse = z.lazy(() =>
  envelope.unwrap().extend({
    Avisos: z.array(attentionNotice),
    /** The three newest statement entries. */
    UltimasMovimentacoes: z.array(statementTransaction),
  }),
);
export type AttentionResponse = z.infer<typeof attentionResponse>;

export const driverSettings = z.lazy(() => z.object({ nivelAlertaSaldo: reais }));
export type DriverSettings = z.infer<typeof driverSettings>;

export const settingsRequest = z.lazy(() =>
  z.object({
    // Not a number (text, null, missing) reads as NaN, so that the field's own message names it, not 'Dados inválidos'.
    nivelAlertaSaldo: z
      .number()
      .catch(Number.NaN)
      .refine(
        (v) => Number.isFinite(v) && v >= 0 && v * 100 <= MAX_BALANCE_ALERT_CENTS && Math.abs(Math.round(v * 100) - v * 100) < 1e-6,
        messages.settings.alertLevelInvalid,
      ),
  }),
);
export type SettingsRequest = z.input<typeof settingsRequest>;

export const settingsResponse = z.lazy(() => envelope.unwrap().extend({ Preferencias: driverSettings }));
export type SettingsResponse = z.infer<typeof settingsResponse>;

export const attentionApi = {
  attention: endpoint({
    method: 'GET',
    path: '/api/motorista/avisos',
    auth: true,
    capability: 'balance',
    summary:
      'O que precisa de atenção no painel: tag bloqueada por mensalidade, saldo abaixo do alerta, Pix aguardando pagamento; e as 3 últimas movimentações',
    response: attentionResponse,
  }),
  settings: endpoint({
    method: 'GET',
    path: '/api/motorista/preferencias',
    auth: true,
    capability: 'balance',
    summary: 'Preferências do motorista (nível de alerta do saldo; R$ 50,00 até escolher)',
    response: settingsResponse,
  }),
  updateSettings: endpoint({
    method: 'POST',
    path: '/api/motorista/preferencias',
    auth: true,
    capability: 'balance',
    idempotent: true,
    summary: 'Salvar as preferências do motorista',
    body: settingsRequest,
    response: settingsResponse,
  }),
};
