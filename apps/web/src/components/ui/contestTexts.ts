import { CONTEST_ANSWER_DAYS, CONTEST_TEXT_MAX } from '@portal/domain';

/**
 * Decision 56: what the driver reads around a contest, shared by the statement, the VPO's details,
 * the dashboard's notice and the contests page. The reasons' and states' labels are the domain's
 * (contestReasonLabels, contestStateLabels); the server writes its own answers (Mensagem).
 */
export const contestTexts = {
  action: 'Contestar',
  /** The action's accessible name: which passage it contests. */
  actionName: (place: string, when: string) => `Contestar a passagem por ${place} de ${when}`,
  dialogTitle: 'Contestar passagem',
  passage: 'Passagem',
  reason: 'Motivo',
  text: 'Descreva o motivo',
  textRequired: 'Obrigatório quando o motivo é “Outro”.',
  textOptional: 'Opcional: conte o que aconteceu.',
  textCount: (used: number) => `${used} de ${CONTEST_TEXT_MAX} caracteres`,
  whatHappens: `A operadora tem até ${CONTEST_ANSWER_DAYS} dias para responder. Se ela aceitar, o valor volta para a conta que pagou a passagem.`,
  submit: 'Enviar contestação',
  back: 'Voltar',
  flagged: 'Possível cobrança duplicada',
  overdue: 'Resposta atrasada',
} as const;
