/**
 * Decision 76: the proof for an appeal ('Comprovante para recurso') a driver hands to the traffic
 * authority when fined although the tag worked, its public verification (/verificar/:codigo), and
 * the payment receipt of a free-flow toll the portal paid. The server writes these texts; the
 * verification page reads the facts (the contract's ProofFacts) and has its own labels.
 */

/** The accounts that pay a toll or a passage, as a proof names them. */
export type ProofPayerAccount = 'vpo' | 'own' | 'third';

const PAYER_ORDER: readonly ProofPayerAccount[] = ['vpo', 'own', 'third'];

export const proofMessages = {
  title: 'Comprovante para recurso',
  receiptTitle: 'Comprovante de pagamento de pedágio sem cancela',
  /** The answer of GET /api/verificar/:codigo. */
  verified: 'Comprovante autêntico: o código confere',
  /** A code the portal did not issue, or one with any character changed. */
  notFound: 'Comprovante não encontrado: o código não confere',
  /** The payment receipt of a toll the portal did not pay. */
  notPaid: 'Este pedágio sem cancela não foi pago pelo portal: não há comprovante de pagamento',
  payers: { vpo: 'VPO', own: 'Saldo', third: 'Saldo de terceiro' } satisfies Record<ProofPayerAccount, string>,
  /** pagoPor of a toll the concessionaire cancelled (unpaid: nothing was owed; paid: the value came back). */
  cancelledUnpaid: 'Cancelado pela concessionária: nada a pagar',
  cancelledPaid: (payer: string) => `${payer}; cancelado pela concessionária, valor devolvido`,
  cancelledAt: (when: string) => `Cancelado pela concessionária em ${when}`,
  kinds: { PEDAGIO_SEM_CANCELA: 'Pedágio sem cancela', PASSAGEM: 'Passagem da tag' },
  sections: { vehicle: 'Veículo e titular', passage: 'Passagem', tag: 'Tag e saldo', payment: 'Pagamento', check: 'Verificação' },
  labels: {
    kind: 'Tipo',
    plate: 'Placa',
    holder: 'Titular',
    document: 'CPF/CNPJ',
    moment: 'Data e hora',
    place: 'Local',
    value: 'Valor',
    tag: 'Tag',
    operator: 'Operadora',
    activeSince: 'Ativa desde',
    activeThen: 'Ativa no momento da passagem',
    balanceThen: 'Saldo disponível no momento',
    paidAt: 'Pago em',
    paidBy: 'Pago com',
    authentication: 'Autenticação',
    issuedAt: 'Emitido em',
    code: 'Código de verificação',
    checkAt: 'Confira em',
    concessionaire: 'Concessionária',
    gantry: 'Pórtico',
    highway: 'Rodovia',
    direction: 'Sentido',
    axles: 'Eixos',
    externalId: 'Id da concessionária',
    situation: 'Situação',
  },
  yes: 'Sim',
  no: 'Não',
  noTag: 'Nenhuma tag no veículo no momento',
  notPaidByPortal: 'Não pago pelo portal',
  never: 'Nunca ativada',
  /** Printed on every proof. */
  ledgerNote:
    'Emitido a partir do livro-razão do Portal do Motorista, cujos lançamentos não são alterados nem apagados: ' +
    'o saldo no momento é o saldo de hoje menos tudo o que foi lançado depois.',
  checkNote: 'Quem recebe este comprovante confere os mesmos fatos no endereço abaixo, com o código de verificação (sem login).',
};

/** Who paid: 'Saldo', 'VPO', 'VPO e Saldo' (the VPO first, as it pays first). */
export function proofPayerText(accounts: Iterable<ProofPayerAccount>): string {
  const used = new Set(accounts);
  return PAYER_ORDER.filter((a) => used.has(a))
    .map((a) => proofMessages.payers[a])
    .join(' e ');
}
