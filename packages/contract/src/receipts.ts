import { z } from 'zod';
import { TEXT_MAX } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime, strictText } from './common.js';
import { reais } from './balance.js';

/** A receipt is of a settled Pix purchase ('compra') or of a withdrawal ('saque'). */
export const receiptKind = z.lazy(() => z.enum(['compra', 'saque']));
export type ReceiptKind = z.infer<typeof receiptKind>;

/**
 * Who paid or received: the driver (name, CPF/CNPJ as the screens show it) or the portal; a Pix key
 * masked as banks do. A withdrawal's receiver is the holder of the key's account as the provider
 * reported it (a CPF masked); `nome` null: the provider did not report the holder (shown as such,
 * never as the driver).
 */
export const receiptParty = z.lazy(() =>
  z.object({
    nome: z.string().nullable(),
    documento: z.string().nullable(),
    chavePix: z.string().nullable(),
    tipoChave: z.string().nullable(),
  }),
);
export type ReceiptParty = z.infer<typeof receiptParty>;

export const RECEIPT_STATUSES = ['RECEIVED', 'REFUNDED', 'PARTIALLY_REFUNDED', 'PROCESSING', 'DONE', 'FAILED'] as const;

export const receipt = z.lazy(() =>
  z.object({
    tipo: receiptKind,
    /** Our id: the charge's or the withdrawal's. */
    id: z.string(),
    titulo: z.string(),
    valor: reais,
    /** When the Pix was received (purchase) or requested (withdrawal). */
    dataHora: isoDateTime,
    /** When it was completed, refunded or reversed; null while processing. */
    concluidoEm: isoDateTime.unwrap().nullable(),
    status: z.enum(RECEIPT_STATUSES),
    /** The status in words (domain messages.receipt.status); a reversed withdrawal says the money came back. */
    statusTexto: z.string(),
    /** The part given back: a purchase's refunds, a reversed withdrawal's whole value; 0 otherwise. */
    valorDevolvido: reais,
    pagador: receiptParty,
    recebedor: receiptParty,
    /** 'Asaas' or 'Portal (ambiente local)'. */
    provedor: z.string(),
    /** The provider's id of the payment or transfer (null while the provider has not given one). */
    idTransacaoProvedor: z.string().nullable(),
    descricao: z.string().nullable(),
    /** Why a withdrawal was not completed. */
    motivo: z.string().nullable(),
  }),
);
export type Receipt = z.infer<typeof receipt>;

export const receiptResponse = z.lazy(() => envelope.unwrap().extend({ Comprovante: receipt }));
export type ReceiptResponse = z.infer<typeof receiptResponse>;

const receiptParams = z.lazy(() => z.object({ tipo: receiptKind, id: strictText(TEXT_MAX.providerId) }));

export const receiptsApi = {
  receipt: endpoint({
    method: 'GET',
    path: '/api/comprovantes/:tipo/:id',
    auth: true,
    capability: 'books',
    summary: 'Comprovante de uma compra de saldo via Pix paga ou de um saque do motorista',
    params: receiptParams,
    response: receiptResponse,
  }),
  receiptPdf: endpoint({
    method: 'GET',
    path: '/api/comprovantes/:tipo/:id/pdf',
    auth: true,
    capability: 'books',
    summary: 'O mesmo comprovante em PDF',
    params: receiptParams,
    response: envelope,
    file: { contentTypes: ['application/pdf'] },
  }),
};
