import { serverMessages } from '@portal/domain';
import { guessableReason } from './guessable-secret.js';

/**
 * Founding decision 28: production refuses development settings at start. Every value of a secret that this
 * repository ships, in the code, the README, docs/ or an example: whoever reads the repository
 * knows them, so a production secret that contains one is refused. One list: the test
 * `production-settings.test.ts` greps the repository's docs for token-like example values and fails
 * when one is not here.
 */
export const SHIPPED_SECRET_VALUES: readonly string[] = [
  // config.ts DEV_PIX_WEBHOOK_TOKEN: the development webhook token the README prints.
  'dev-webhook-token-portal-do-motorista',
  // config.ts DEV_TRANSFER_VALIDATION_TOKEN: the development token of Asaas's transfer validation.
  'dev-transfer-validation-token-portal-do-motorista',
  // Fixed tokens that production-mode test and bench servers were started with before they were
  // generated per run: they stay in the repository's history.
  'token-de-teste-do-webhook-processo-40chr',
  'bench-webhook-token-not-secret-0123456789',
  'um-token-de-webhook-de-producao-0123456789',
  'um-token-de-producao-bem-longo-0123456789',
];

/**
 * The secrets of the configuration and the fewest characters each takes in production (random
 * characters: `openssl rand -hex 32` writes 64). The webhook tokens follow Asaas's rule for a
 * webhook's authToken (32 to 255); an Asaas API key is far longer ($aact_...); the metrics token
 * guards the operator's view of the whole service.
 */
export const SECRET_MINIMUM_LENGTH = {
  PIX_WEBHOOK_TOKEN: 32,
  ASAAS_TRANSFER_VALIDATION_TOKEN: 32,
  ASAAS_API_KEY: 32,
  METRICS_TOKEN: 32,
} as const;

export type SecretVariable = keyof typeof SECRET_MINIMUM_LENGTH;

/**
 * Every secret production reads: the four above and the push notifications' private key (its length is
 * the key's own, checked with its pair). None may be guessable, nor equal to another (decision 61).
 */
export const PRODUCTION_SECRETS = [...(Object.keys(SECRET_MINIMUM_LENGTH) as SecretVariable[]), 'VAPID_PRIVATE_KEY'] as const;

/** The host of Asaas's production API: real money, never behind a demonstration's banner. */
const ASAAS_PRODUCTION_HOST = 'api.asaas.com';

/**
 * Decision 72: the encarregado (LGPD art. 41) outside production when PRIVACY_OFFICER_* are not set.
 * Production refuses to start without the real ones, and refuses these.
 */
export const PRIVACY_OFFICER_EXAMPLE = { name: 'Encarregado de exemplo', email: 'encarregado@exemplo.com.br' } as const;

/** What the refusals read from the validated environment. */
interface ProductionSettingsInput extends Partial<Record<SecretVariable, string>> {
  NODE_ENV: 'development' | 'production' | 'test';
  PIX_PROVIDER: 'local' | 'asaas';
  DEMONSTRATION: boolean;
  DEMO_SEED?: boolean;
  ASAAS_API_URL?: string;
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  PRIVACY_OFFICER_NAME?: string;
  PRIVACY_OFFICER_EMAIL?: string;
}

interface Refusal {
  /** The variable to change. */
  variable: string;
  /** Portuguese, for the operator who starts the server. */
  message: string;
}

/** The shipped value a secret contains, if any (case and surrounding text do not hide one). */
function shippedValueIn(secret: string): string | null {
  const lower = secret.toLowerCase();
  return SHIPPED_SECRET_VALUES.find((shipped) => lower.includes(shipped.toLowerCase())) ?? null;
}

function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Decision 61: a secret one character repeated, a short piece repeated, a sequence or too few characters is
 * refused; so is a secret equal to another (the transfer validation's token equal to the webhook's: whoever
 * may post payment events would approve transfers). The later variable is refused, naming the earlier.
 */
function weakSecretRefusals(env: ProductionSettingsInput): Refusal[] {
  const texts = serverMessages.productionSettings;
  const refusals: Refusal[] = [];
  const seen = new Map<string, string>();
  for (const variable of PRODUCTION_SECRETS) {
    const value = env[variable];
    if (value === undefined || shippedValueIn(value) !== null) continue;
    const reason = guessableReason(value);
    const same = seen.get(value.trim().toLowerCase());
    if (same !== undefined) refusals.push({ variable, message: texts.secretEqualTo.replace('{other}', same) });
    else if (reason !== null) refusals.push({ variable, message: texts.secretGuessable.replace('{reason}', texts.guessable[reason]) });
    seen.set(value.trim().toLowerCase(), variable);
  }
  return refusals;
}

/**
 * Why this environment may not serve drivers as production, one refusal per variable (none outside
 * production: development and tests keep the local provider, the demo driver and their tokens).
 */
export function productionRefusals(env: ProductionSettingsInput): Refusal[] {
  if (env.NODE_ENV !== 'production') return [];
  const texts = serverMessages.productionSettings;
  const refusals: Refusal[] = [];
  for (const [variable, min] of Object.entries(SECRET_MINIMUM_LENGTH) as [SecretVariable, number][]) {
    const value = env[variable];
    if (value === undefined) continue;
    if (shippedValueIn(value) !== null) refusals.push({ variable, message: texts.shippedSecret });
    else if ([...value].length < min) refusals.push({ variable, message: texts.secretTooShort.replace('{min}', String(min)) });
  }
  const refused = new Set(refusals.map((r) => r.variable));
  refusals.push(...weakSecretRefusals(env).filter((r) => !refused.has(r.variable)));
  if (env.PIX_PROVIDER === 'local' && !env.DEMONSTRATION) refusals.push({ variable: 'PIX_PROVIDER', message: texts.localPixProvider });
  if (env.DEMO_SEED === true && !env.DEMONSTRATION) refusals.push({ variable: 'DEMO_SEED', message: texts.demoSeed });
  // Decision 57: a pair generated in the database is for development; production brings its own.
  for (const variable of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const) {
    if (!env[variable]) refusals.push({ variable, message: texts.vapidRequired });
  }
  // Decision 72: art. 41 § 1 asks the encarregado's identity and contact published; a demonstration's drivers are real people too.
  for (const [variable, example] of [
    ['PRIVACY_OFFICER_NAME', PRIVACY_OFFICER_EXAMPLE.name],
    ['PRIVACY_OFFICER_EMAIL', PRIVACY_OFFICER_EXAMPLE.email],
  ] as const) {
    const value = env[variable];
    if (!value) refusals.push({ variable, message: texts.privacyOfficerRequired });
    else if (value.trim().toLowerCase() === example.toLowerCase()) refusals.push({ variable, message: texts.privacyOfficerExample });
  }
  if (env.DEMONSTRATION && env.PIX_PROVIDER === 'asaas' && hostOf(env.ASAAS_API_URL) === ASAAS_PRODUCTION_HOST) {
    refusals.push({ variable: 'DEMONSTRATION', message: texts.demonstrationWithRealMoney });
  }
  return refusals;
}
