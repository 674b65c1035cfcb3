import { describe, expect, it } from 'vitest';
import { describeStatementEntry, STATEMENT_ORIGINS, STATEMENT_PLACE_NAMES } from '../src/index.js';

describe('statement descriptions (SPEC 2: first word capitalised, the rest lower-cased)', () => {
  it.each([
    { name: 'a purchase as the server writes it', origin: STATEMENT_ORIGINS.pixPurchase, place: STATEMENT_PLACE_NAMES.pixPurchase, text: 'Compra de saldo via Pix' },
    { name: 'a purchase in capitals', origin: STATEMENT_ORIGINS.pixPurchase, place: 'COMPRA DE SALDO via PIX', text: 'Compra de saldo via Pix' },
    { name: 'a refund', origin: STATEMENT_ORIGINS.pixRefund, place: STATEMENT_PLACE_NAMES.pixRefund, text: 'Estorno de compra via Pix' },
    { name: 'a withdrawal', origin: STATEMENT_ORIGINS.pixWithdrawal, place: STATEMENT_PLACE_NAMES.pixWithdrawal, text: 'Saque via Pix' },
    { name: 'a withdrawal given back', origin: STATEMENT_ORIGINS.pixWithdrawalReversal, place: STATEMENT_PLACE_NAMES.pixWithdrawalReversal, text: 'Devolução de saque via Pix' },
    { name: 'Pix as the first word', origin: STATEMENT_ORIGINS.pixPurchase, place: 'pix RECEBIDO', text: 'Pix recebido' },
    { name: 'a word that only begins with pix', origin: STATEMENT_ORIGINS.tagFee, place: 'PIXEL DA TAG', text: 'Pixel da tag' },
    { name: 'a tag fee', origin: STATEMENT_ORIGINS.tagFee, place: 'MENSALIDADE DA TAG', text: 'Mensalidade da tag' },
  ])('$name: $text', ({ origin, place, text }) => {
    expect(describeStatementEntry(origin, place, false)).toEqual({ text, tooltip: null, icon: null });
  });
});
