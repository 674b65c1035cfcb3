import path from 'node:path';
import { ACCESS_RECORDS_MIN_MONTHS, CLOSURE_KEEP_YEARS } from '@portal/domain';
import { z } from 'zod';

/** Founding architecture §21: a driver's Idempotency-Key answers its retries for at least 24 hours. */
const IDEMPOTENCY_KEY_MIN_HOURS = 24;

/** pix:reconcile compares the last 7 days with the provider: a resolved event deleted sooner could be found again. */
const WEBHOOK_EVENTS_MIN_MONTHS = 1;

const wholeNumber = z.coerce.number().int('um número inteiro');

/**
 * Decision 71: every period the retention job applies, one RETENTION_* variable each (docs/operations.md).
 * A value below a legal or contractual minimum stops the start with the reason.
 */
export const retentionEnv = {
  RETENTION_ACCESS_RECORDS_MONTHS: wholeNumber
    .min(
      ACCESS_RECORDS_MIN_MONTHS,
      `no mínimo ${ACCESS_RECORDS_MIN_MONTHS}: o Marco Civil da Internet (Lei 12.965/2014, art. 15) manda guardar os registros de acesso por 6 meses`,
    )
    .default(ACCESS_RECORDS_MIN_MONTHS),
  RETENTION_SESSIONS_DAYS: wholeNumber.min(0, 'no mínimo 0 (dias depois de a sessão expirar ou ser encerrada)').default(30),
  RETENTION_IDEMPOTENCY_KEYS_HOURS: wholeNumber
    .min(
      IDEMPOTENCY_KEY_MIN_HOURS,
      `no mínimo ${IDEMPOTENCY_KEY_MIN_HOURS}: um pedido repetido com a mesma Idempotency-Key é reconhecido por pelo menos 24 horas`,
    )
    .default(IDEMPOTENCY_KEY_MIN_HOURS),
  RETENTION_PUSH_SENT_DAYS: wholeNumber.min(0, 'no mínimo 0').default(7),
  RETENTION_PUSH_GIVEN_UP_DAYS: wholeNumber.min(0, 'no mínimo 0').default(30),
  RETENTION_WEBHOOK_EVENTS_MONTHS: wholeNumber
    .min(
      WEBHOOK_EVENTS_MIN_MONTHS,
      `no mínimo ${WEBHOOK_EVENTS_MIN_MONTHS}: pix:reconcile compara os últimos 7 dias com o Asaas e registraria de novo uma contradição já resolvida`,
    )
    .default(60),
  RETENTION_CLOSED_ACCOUNTS_YEARS: wholeNumber
    .min(
      CLOSURE_KEEP_YEARS,
      `no mínimo ${CLOSURE_KEEP_YEARS}: a Lei 9.613/1998 (art. 10, § 2º) manda guardar os registros por 5 anos a partir do encerramento da conta`,
    )
    .default(CLOSURE_KEEP_YEARS),
  RETENTION_LEDGER_YEARS: wholeNumber
    .min(
      CLOSURE_KEEP_YEARS,
      `no mínimo ${CLOSURE_KEEP_YEARS}: a Lei 9.613/1998 (art. 10, § 2º) manda guardar os registros das transações por 5 anos a partir da sua conclusão`,
    )
    .default(CLOSURE_KEEP_YEARS),
  RETENTION_ARCHIVE_DIR: z.string().trim().min(1, 'informe uma pasta').default('data/archive'),
  RETENTION_INTERVAL_HOURS: wholeNumber
    .min(1, 'no mínimo 1')
    .max(24 * 7, 'no máximo 168 (uma semana)')
    .default(24),
};

type RetentionEnv = { [K in keyof typeof retentionEnv]: z.output<(typeof retentionEnv)[K]> };

export interface RetentionConfig {
  /** Access records (sign-ins, registrations, data downloads) are deleted after this many calendar months. */
  accessRecordsMonths: number;
  /** An expired or ended session's row is deleted this many days after it expired or ended. */
  sessionsDays: number;
  /** A driver's Idempotency-Key and its first answer are kept this long (http/idempotency.ts), then deleted. */
  idempotencyKeysHours: number;
  /** The push outbox's rows: sent ones and given-up ones are deleted this many days after. */
  pushSentDays: number;
  pushGivenUpDays: number;
  /** A resolved provider event (pix:events) is deleted this many calendar months after it was resolved; open ones never. */
  webhookEventsMonths: number;
  /**
   * A closed account's records lose what still names a person this many calendar years after the
   * closing (never before the keep_until the closing wrote); the books stay.
   */
  closedAccountsYears: number;
  /**
   * Decision 80 (PostgreSQL): a month of the ledger's entries and of the passages is detached and
   * archived to archiveDir once this many whole calendar years have passed after its year.
   */
  ledgerYears: number;
  archiveDir: string;
  /** How often each instance runs the job (one at a time on PostgreSQL). */
  intervalMs: number;
}

/** `cwd`: where a relative RETENTION_ARCHIVE_DIR starts (the server's folder, as DATABASE_URL's default). */
export function retentionConfig(e: RetentionEnv, cwd: string): RetentionConfig {
  return {
    accessRecordsMonths: e.RETENTION_ACCESS_RECORDS_MONTHS,
    sessionsDays: e.RETENTION_SESSIONS_DAYS,
    idempotencyKeysHours: e.RETENTION_IDEMPOTENCY_KEYS_HOURS,
    pushSentDays: e.RETENTION_PUSH_SENT_DAYS,
    pushGivenUpDays: e.RETENTION_PUSH_GIVEN_UP_DAYS,
    webhookEventsMonths: e.RETENTION_WEBHOOK_EVENTS_MONTHS,
    closedAccountsYears: e.RETENTION_CLOSED_ACCOUNTS_YEARS,
    ledgerYears: e.RETENTION_LEDGER_YEARS,
    archiveDir: path.resolve(cwd, e.RETENTION_ARCHIVE_DIR),
    intervalMs: e.RETENTION_INTERVAL_HOURS * 3_600_000,
  };
}
