import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { TEST_PRIVACY_OFFICER_ENV, TEST_VAPID_ENV } from '../../helpers/app.js';

const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(env, '/repo');
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('configuração aceita');
};

describe('the retention periods (decision 71)', () => {
  it('defaults: 6 months of access records, 30 days of ended sessions, 24 h of idempotency keys, 7 and 30 days of push rows, 5 years of resolved provider events, of closed accounts and of the ledger’s months before their archive, daily', () => {
    expect(loadConfig({}, '/repo').retention).toEqual({
      accessRecordsMonths: 6,
      sessionsDays: 30,
      idempotencyKeysHours: 24,
      pushSentDays: 7,
      pushGivenUpDays: 30,
      webhookEventsMonths: 60,
      closedAccountsYears: 5,
      ledgerYears: 5,
      archiveDir: '/repo/data/archive',
      intervalMs: 24 * 3_600_000,
    });
  });

  it('an operator may keep longer, or the housekeeping rows shorter', () => {
    const r = loadConfig(
      {
        RETENTION_ACCESS_RECORDS_MONTHS: '12',
        RETENTION_SESSIONS_DAYS: '0',
        RETENTION_IDEMPOTENCY_KEYS_HOURS: '48',
        RETENTION_PUSH_SENT_DAYS: '1',
        RETENTION_PUSH_GIVEN_UP_DAYS: '0',
        RETENTION_WEBHOOK_EVENTS_MONTHS: '1',
        RETENTION_CLOSED_ACCOUNTS_YEARS: '10',
        RETENTION_INTERVAL_HOURS: '6',
        RETENTION_LEDGER_YEARS: '7',
        RETENTION_ARCHIVE_DIR: '/srv/arquivo-portal',
      },
      '/repo',
    ).retention;
    expect(r).toEqual({
      accessRecordsMonths: 12,
      sessionsDays: 0,
      idempotencyKeysHours: 48,
      pushSentDays: 1,
      pushGivenUpDays: 0,
      webhookEventsMonths: 1,
      closedAccountsYears: 10,
      ledgerYears: 7,
      archiveDir: '/srv/arquivo-portal',
      intervalMs: 6 * 3_600_000,
    });
  });

  it('refuses at start a period below the legal minimum, naming the variable and the law', () => {
    expect(refusal({ RETENTION_ACCESS_RECORDS_MONTHS: '5' })).toContain(
      'RETENTION_ACCESS_RECORDS_MONTHS: no mínimo 6: o Marco Civil da Internet (Lei 12.965/2014, art. 15) manda guardar os registros de acesso por 6 meses',
    );
    expect(refusal({ RETENTION_CLOSED_ACCOUNTS_YEARS: '4' })).toContain(
      'RETENTION_CLOSED_ACCOUNTS_YEARS: no mínimo 5: a Lei 9.613/1998 (art. 10, § 2º) manda guardar os registros por 5 anos a partir do encerramento da conta',
    );
    expect(refusal({ RETENTION_LEDGER_YEARS: '4' })).toContain(
      'RETENTION_LEDGER_YEARS: no mínimo 5: a Lei 9.613/1998 (art. 10, § 2º) manda guardar os registros das transações por 5 anos a partir da sua conclusão',
    );
    expect(refusal({ RETENTION_IDEMPOTENCY_KEYS_HOURS: '23' })).toContain('RETENTION_IDEMPOTENCY_KEYS_HOURS: no mínimo 24');
    expect(refusal({ RETENTION_WEBHOOK_EVENTS_MONTHS: '0' })).toContain('RETENTION_WEBHOOK_EVENTS_MONTHS: no mínimo 1');
    expect(refusal({ RETENTION_SESSIONS_DAYS: '-1' })).toContain('RETENTION_SESSIONS_DAYS: no mínimo 0');
    expect(refusal({ RETENTION_ACCESS_RECORDS_MONTHS: '6.5' })).toContain('RETENTION_ACCESS_RECORDS_MONTHS: um número inteiro');
    expect(refusal({ RETENTION_INTERVAL_HOURS: '0' })).toContain('RETENTION_INTERVAL_HOURS: no mínimo 1');
    // Every refusal at once, as for any other variable.
    const both = refusal({ RETENTION_ACCESS_RECORDS_MONTHS: '3', RETENTION_CLOSED_ACCOUNTS_YEARS: '1' });
    expect(both).toContain('RETENTION_ACCESS_RECORDS_MONTHS');
    expect(both).toContain('RETENTION_CLOSED_ACCOUNTS_YEARS');
  });

  it('production refuses them too: the minimum is the law, not a development default', () => {
    const production = {
      NODE_ENV: 'production',
      PIX_PROVIDER: 'asaas',
      ...TEST_VAPID_ENV,
      ...TEST_PRIVACY_OFFICER_ENV,
      RETENTION_ACCESS_RECORDS_MONTHS: '1',
    };
    expect(refusal(production)).toContain('RETENTION_ACCESS_RECORDS_MONTHS: no mínimo 6');
  });
});
