import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PayoutLimitKind } from '@portal/domain';
import { DEFAULT_PAYOUT_LIMITS_CENTS, DUPLICATE_PASSAGE_MINUTES_DEFAULT, MAX_PAYOUT_LIMITS_CENTS } from '@portal/domain';
import { z } from 'zod';
import type { LoginLimits } from './modules/auth/throttle.js';
import type { DriverCallLimits } from './modules/payouts/guard.js';
import type { PrivacyOfficer } from './modules/privacy/routes.js';
import { PRIVACY_OFFICER_EXAMPLE, productionRefusals } from './production-settings.js';
import { serverUrlOf } from './server-address.js';
import type { VapidKeys } from './modules/notifications/vapid.js';
import { vapidPairError } from './modules/notifications/vapid.js';
import type { RetentionConfig } from './modules/retention/settings.js';
import { retentionConfig, retentionEnv } from './modules/retention/settings.js';

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/**
 * Development/test webhook token (documented in the README): anyone who knows it can confirm
 * payments, so production refuses to start without its own PIX_WEBHOOK_TOKEN.
 */
export const DEV_PIX_WEBHOOK_TOKEN = 'dev-webhook-token-portal-do-motorista';

/**
 * Development/test token of the Asaas transfer validation (founding decision 26). Production uses only its
 * own ASAAS_TRANSFER_VALIDATION_TOKEN: without one the route does not exist, and Asaas cancels every
 * transfer it cannot validate (three failed calls), so payouts fail safe.
 */
export const DEV_TRANSFER_VALIDATION_TOKEN = 'dev-transfer-validation-token-portal-do-motorista';

/** Placeholder support number (Brazil +55, DDD 11): replace it with the real one via SUPPORT_WHATSAPP. */
export const SUPPORT_WHATSAPP_PLACEHOLDER = '5511999999999';

const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/server/src (tsx) and apps/server/dist (bundle) are both one level below apps/server. */
const defaultWebDist = path.resolve(here, '..', '..', 'web', 'dist');

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const positiveInt = z.coerce.number().int().positive();

/** A default withdrawal limit in whole reais, from 0 to the most a driver may set; in centavos. */
function limitReais(kind: PayoutLimitKind) {
  const max = MAX_PAYOUT_LIMITS_CENTS[kind] / 100;
  return z.coerce
    .number()
    .int('em reais inteiros')
    .min(0)
    .max(max, `no máximo ${max}`)
    .default(DEFAULT_PAYOUT_LIMITS_CENTS[kind] / 100)
    .transform((reais) => reais * 100);
}

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY lists. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_PROXY_HOPS = 10;

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry) || isIP(entry) !== 0) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0 || !prefix || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies may tell us the client's address (X-Forwarded-For): none, how many hops, or
 * their addresses. Never everyone: the left of that header is whatever the client wrote.
 */
const trustProxy = z
  .string()
  .trim()
  .default('')
  .transform((value, ctx): number | string[] => {
    if (value === '' || value.toLowerCase() === 'false') return 0;
    if (['true', 'all', 'yes', '*'].includes(value.toLowerCase())) {
      ctx.addIssue({
        code: 'custom',
        message:
          `'${value}' confiaria no X-Forwarded-For de qualquer cliente, que pode forjá-lo; escreva quantos proxies ficam à frente ` +
          'do servidor (ex.: TRUST_PROXY=1) ou os endereços deles (ex.: TRUST_PROXY=10.0.0.5,10.0.1.0/24)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= MAX_PROXY_HOPS) return hops;
      ctx.addIssue({ code: 'custom', message: `no máximo ${MAX_PROXY_HOPS} (o número real de proxies à frente do servidor)` });
      return z.NEVER;
    }
    const entries = value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const invalid = entries.filter((e) => !isProxyAddress(e));
    if (invalid.length > 0) {
      ctx.addIssue({ code: 'custom', message: `não é número de proxies nem endereço/rede: ${invalid.join(', ')}` });
      return z.NEVER;
    }
    return entries;
  });

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    // Decision 61: development listens on this machine only; production on every interface, behind its proxy.
    HOST: z.string().trim().min(1).optional(),
    DATABASE_URL: z.string().min(1).optional(),
    DATABASE_POOL_MAX: positiveInt.default(10),
    // Decision 81: a PostgreSQL streaming replica for the reads that tolerate lag.
    DATABASE_READ_URL: z.string().trim().min(1).optional(),
    DATABASE_READ_MAX_LAG_MS: positiveInt.max(59_000, 'no máximo 59000: o último minuto do motorista é lido no primário').default(10_000),
    DATABASE_READ_FRESH_MS: positiveInt.default(60_000),
    SESSION_TTL_HOURS: positiveInt.default(168),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    WEB_DIST: z.string().min(1).optional(),
    SUPPORT_WHATSAPP: z
      .string()
      .regex(/^\d{10,15}$/, 'apenas dígitos, com código do país (ex.: 5511999999999)')
      .default(SUPPORT_WHATSAPP_PLACEHOLDER),
    // Decision 72: the encarregado the privacy notice names (LGPD art. 41 § 1); required in production.
    PRIVACY_OFFICER_NAME: z.string().trim().min(3, 'pelo menos 3 caracteres').max(120, 'no máximo 120 caracteres').optional(),
    PRIVACY_OFFICER_EMAIL: z
      .string()
      .trim()
      .max(254, 'no máximo 254 caracteres')
      .pipe(z.email('um endereço de e-mail (ex.: privacidade@suaempresa.com.br)'))
      .optional(),
    DEMO_SEED: bool.optional(),
    // Founding decision 28: a deployment that says in so many words it is a demonstration (local Pix provider, demo driver); every page says so.
    DEMONSTRATION: bool.default(false),
    TRUST_PROXY: trustProxy,
    HSTS: bool.default(false),
    API_DOCS: bool.optional(),
    LOGIN_WINDOW_MINUTES: positiveInt.default(15),
    LOGIN_MAX_PER_DOCUMENT_ADDRESS: positiveInt.default(5),
    LOGIN_MAX_PER_ADDRESS: positiveInt.default(100),
    LOGIN_DOCUMENT_FREE_ATTEMPTS: positiveInt.default(10),
    LOGIN_DOCUMENT_MAX_DELAY_SECONDS: positiveInt.default(900),
    LOGIN_KNOWN_ADDRESS_DAYS: positiveInt.default(30),
    REGISTRATION_MAX_PER_ADDRESS: positiveInt.default(10),
    REGISTRATION_WINDOW_MINUTES: positiveInt.default(60),
    WEBHOOK_MAX_PER_ADDRESS: positiveInt.default(300),
    WEBHOOK_WINDOW_MINUTES: positiveInt.default(1),
    PARTNER_MAX_PER_KEY: positiveInt.default(6000),
    PARTNER_MAX_PER_ADDRESS: positiveInt.default(12_000),
    PARTNER_WINDOW_MINUTES: positiveInt.default(1),
    DUPLICATE_PASSAGE_MINUTES: positiveInt.max(24 * 60).default(DUPLICATE_PASSAGE_MINUTES_DEFAULT),
    HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
    HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(72_000),
    HTTP_CONNECTION_TIMEOUT_MS: positiveInt.default(60_000),
    ARGON2_MEMORY_KIB: z.coerce.number().int().min(8).default(19456),
    ARGON2_TIME_COST: positiveInt.default(2),
    SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
    PIX_PROVIDER: z.enum(['local', 'asaas']).default('local'),
    PIX_RECEIVER_KEY: z.string().trim().min(1).max(77).default('pix@portaldomotorista.com.br'),
    PIX_MERCHANT_NAME: z.string().trim().min(1).max(25, 'no máximo 25 caracteres (BR Code)').default('PORTAL DO MOTORISTA'),
    PIX_MERCHANT_CITY: z.string().trim().min(1).max(15, 'no máximo 15 caracteres (BR Code)').default('SAO PAULO'),
    // Asaas's own rule for a webhook's authToken: 32 to 255 characters.
    PIX_WEBHOOK_TOKEN: z
      .string()
      .min(32, 'pelo menos 32 caracteres (regra do Asaas)')
      .max(255, 'no máximo 255 caracteres (regra do Asaas)')
      .optional(),
    ASAAS_TRANSFER_VALIDATION_TOKEN: z
      .string()
      .min(32, 'pelo menos 32 caracteres')
      .max(255, 'no máximo 255 caracteres (regra do Asaas)')
      .optional(),
    ASAAS_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    ASAAS_API_KEY: z.string().min(1).optional(),
    ASAAS_TIMEOUT_MS: positiveInt.default(10_000),
    // Decision 58: Pix Automático. Asaas enables it on request: with PIX_PROVIDER=asaas it is off until the operator says so.
    PIX_AUTOMATIC_ENABLED: bool.optional(),
    PIX_AUTOMATIC_CYCLE_INTERVAL_MINUTES: positiveInt.max(24 * 60).default(60),
    SERVER_URL: z.url({ protocol: /^https?$/ }).optional(),
    METRICS_TOKEN: z.string().min(16, 'pelo menos 16 caracteres').optional(),
    // Issue 21, point 8: statement exports at once in this process, and how long one waits for a client that takes nothing.
    EXPORTS_MAX_IN_FLIGHT: positiveInt.default(4),
    EXPORT_STALL_TIMEOUT_MS: positiveInt.default(30_000),
    // Issue 21, point 4: per driver, counted in the database (every instance sees the same count).
    WITHDRAWALS_PER_HOUR: positiveInt.default(5),
    PIX_CHARGES_PER_HOUR: positiveInt.default(10),
    PIX_CHARGES_PENDING_MAX: positiveInt.default(3),
    // Decision 44: each driver's withdrawal limits until they choose, in reais (the domain's defaults).
    PAYOUT_LIMIT_PER_WITHDRAWAL_DEFAULT: limitReais('perWithdrawal'),
    PAYOUT_LIMIT_DAILY_DEFAULT: limitReais('daily'),
    PAYOUT_LIMIT_NIGHT_DEFAULT: limitReais('night'),
    // Decision 57: Web Push. Production requires the three VAPID variables (production-settings.ts).
    VAPID_PUBLIC_KEY: z.string().trim().min(1).optional(),
    VAPID_PRIVATE_KEY: z.string().trim().min(1).optional(),
    VAPID_SUBJECT: z
      .string()
      .trim()
      .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'mailto:endereco@dominio ou https://... (quem o serviço de notificações contata)')
      .optional(),
    PUSH_SERVICE_HOSTS: z.string().trim().optional(),
    PUSH_DRAIN_INTERVAL_MS: positiveInt.default(2_000),
    PUSH_MAX_ATTEMPTS: positiveInt.max(20).default(8),
    PUSH_TIMEOUT_MS: positiveInt.default(10_000),
    // Journeys that need an hour of the day (the night limit): the instant the payout clock reads at start.
    CLOCK_START: z
      .string()
      .refine((v) => !Number.isNaN(Date.parse(v)), 'data e hora ISO 8601 com fuso (ex.: 2026-11-25T23:00:00-03:00)')
      .optional(),
    // Decision 71: how long each kind of row is kept (RETENTION_*), legal minimums refused at start.
    ...retentionEnv,
  })
  .superRefine((e, ctx) => {
    if (e.PIX_PROVIDER === 'asaas') {
      if (!e.ASAAS_API_URL) ctx.addIssue({ code: 'custom', path: ['ASAAS_API_URL'], message: 'obrigatório com PIX_PROVIDER=asaas' });
      if (!e.ASAAS_API_KEY) ctx.addIssue({ code: 'custom', path: ['ASAAS_API_KEY'], message: 'obrigatório com PIX_PROVIDER=asaas' });
    }
    if (e.DATABASE_READ_URL && !(POSTGRES_URL.test(e.DATABASE_READ_URL) && POSTGRES_URL.test(e.DATABASE_URL ?? ''))) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_READ_URL'],
        message: 'só com PostgreSQL: DATABASE_URL e DATABASE_READ_URL postgres://… (uma réplica por streaming do primário)',
      });
    }
    if (e.DATABASE_READ_MAX_LAG_MS >= e.DATABASE_READ_FRESH_MS) {
      ctx.addIssue({ code: 'custom', path: ['DATABASE_READ_MAX_LAG_MS'], message: 'precisa ser menor que DATABASE_READ_FRESH_MS' });
    }
    if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({ code: 'custom', path: ['HTTP_HEADERS_TIMEOUT_MS'], message: 'não pode passar de HTTP_REQUEST_TIMEOUT_MS' });
    }
    if (e.NODE_ENV === 'production' && e.CLOCK_START) {
      ctx.addIssue({ code: 'custom', path: ['CLOCK_START'], message: 'só para testes: em produção o relógio é o do sistema' });
    }
    if (e.NODE_ENV === 'production' && !e.PIX_WEBHOOK_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['PIX_WEBHOOK_TOKEN'], message: 'obrigatório em produção' });
    }
    if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
      const variable = e.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY';
      ctx.addIssue({ code: 'custom', path: [variable], message: 'informe VAPID_PUBLIC_KEY e VAPID_PRIVATE_KEY juntas (o mesmo par)' });
    } else if (e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY) {
      const error = vapidPairError(e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY);
      if (error) ctx.addIssue({ code: 'custom', path: [error.variable], message: error.message });
    }
    for (const refusal of productionRefusals(e)) ctx.addIssue({ code: 'custom', path: [refusal.variable], message: refusal.message });
  });

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string;
  databasePoolMax: number;
  /** Decision 81: the replica the lag-tolerant reads go to, when DATABASE_READ_URL names one. */
  databaseRead: { url: string; maxLagMs: number; freshMs: number } | null;
  sessionTtlHours: number;
  logLevel: string;
  webDist: string;
  supportWhatsapp: string;
  /** Decision 72: the encarregado (LGPD art. 41), shown in the privacy notice (GET /api/privacidade). */
  privacyOfficer: PrivacyOfficer;
  demoSeed: boolean;
  /** DEMONSTRATION=true: no payment is real, and every page served says so (plugins/web.ts). */
  demonstration: boolean;
  /** Fastify's trustProxy: 0 (no proxy), a hop count, or the proxies' addresses. */
  trustProxy: number | string[];
  hsts: boolean;
  /** OpenAPI at /api/docs: on unless production, where the operator turns it on with API_DOCS=true. */
  apiDocs: boolean;
  login: LoginLimits;
  limits: RequestLimits;
  http: HttpTimeouts;
  argon2: { memoryCost: number; timeCost: number };
  shutdownTimeoutMs: number;
  pix: PixConfig;
  /** Where operator commands (pix:pay) reach the running server. */
  serverUrl: string;
  /** Bearer token of GET /api/metrics; null: the route does not exist (404). */
  metricsToken: string | null;
  /** Statement exports (issue 21, point 8): at most maxInFlight at once; one whose client takes no byte for stallMs is closed. */
  exports: { maxInFlight: number; stallMs: number };
  /** Decision 56: two passages of one tag at one plaza this close are flagged as a possible double charge. */
  duplicatePassageMinutes: number;
  /** Per-driver limits of the calls that cost the operator money. */
  driverCalls: DriverCallLimits;
  /** Each driver's withdrawal limits until they choose, in centavos. */
  payoutLimitDefaults: Record<PayoutLimitKind, number>;
  /** The payout clock: the system's, or CLOCK_START's advancing from start (never in production). */
  clock: () => Date;
  push: PushConfig;
  /** Decision 71: the retention job's periods. */
  retention: RetentionConfig;
}

/** Decision 57: Web Push notifications. */
export interface PushConfig {
  /** The environment's VAPID pair; null: one generated once and kept in the database (never in production). */
  vapid: VapidKeys | null;
  /** Who the push services contact (mailto: or https:), sent in every VAPID token. */
  subject: string;
  /** The push services' hosts a subscription may name (a host or its subdomains); null: any https host. */
  serviceHosts: readonly string[] | null;
  /** http endpoints on this machine (a local push server in development and tests); never in production. */
  allowLoopback: boolean;
  /** How often each instance tries to drain the outbox. */
  drainIntervalMs: number;
  /** Attempts of one notification before it is given up. */
  maxAttempts: number;
  /** One push request's time limit. */
  timeoutMs: number;
}

export interface RequestLimit {
  max: number;
  windowMinutes: number;
}

export interface RequestLimits {
  /** Per client address. */
  registration: RequestLimit;
  /** Per client address. */
  webhook: RequestLimit;
  /** max per API key presented, maxPerAddress per client address. */
  partner: RequestLimit & { maxPerAddress: number };
}

export interface HttpTimeouts {
  requestMs: number;
  headersMs: number;
  keepAliveMs: number;
  /** Socket inactivity. */
  connectionMs: number;
}

export interface PixConfig {
  provider: 'local' | 'asaas';
  receiverKey: string;
  merchantName: string;
  merchantCity: string;
  webhookToken: string;
  /** asaas-access-token of the transfer validation route; null: the route is not registered. */
  transferValidationToken: string | null;
  asaas: { apiUrl: string; apiKey: string; timeoutMs: number } | null;
  /** Decision 58: the recurring top-up by Pix Automático: offered to drivers, and how often the cycles are sent. */
  automatic: { enabled: boolean; cycleIntervalMs: number };
}

export class ConfigError extends Error {}

/** VAPID_SUBJECT outside production when none is set. */
export const DEV_VAPID_SUBJECT = 'mailto:suporte@portaldomotorista.com.br';

/**
 * The push services of the browsers drivers use (Chrome, Edge, Samsung Internet and other Chromium
 * browsers through Firebase Cloud Messaging; Firefox; Windows; Safari): a subscription naming another host
 * is refused, so a driver cannot make the server post to an address of their choosing.
 */
const DEFAULT_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'notify.windows.com',
  'push.apple.com',
] as const;

/** PUSH_SERVICE_HOSTS: a comma list of hosts, or '*' for any https host. */
function pushServiceHosts(value: string | undefined): readonly string[] | null {
  if (value === '*') return null;
  if (!value) return DEFAULT_PUSH_SERVICE_HOSTS;
  return value
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
}

function clockFrom(start: string | undefined): () => Date {
  if (!start) return () => new Date();
  const offset = Date.parse(start) - Date.now();
  return () => new Date(Date.now() + offset);
}

/** Reads and validates the environment once; the error names every invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Configuração inválida:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    databaseUrl: e.DATABASE_URL ?? `file:${path.resolve(cwd, 'data', 'portal.sqlite')}`,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databaseRead: e.DATABASE_READ_URL
      ? { url: e.DATABASE_READ_URL, maxLagMs: e.DATABASE_READ_MAX_LAG_MS, freshMs: e.DATABASE_READ_FRESH_MS }
      : null,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ? path.resolve(cwd, e.WEB_DIST) : defaultWebDist,
    supportWhatsapp: e.SUPPORT_WHATSAPP,
    privacyOfficer: {
      name: e.PRIVACY_OFFICER_NAME ?? PRIVACY_OFFICER_EXAMPLE.name,
      email: e.PRIVACY_OFFICER_EMAIL ?? PRIVACY_OFFICER_EXAMPLE.email,
    },
    demoSeed: e.DEMO_SEED ?? e.NODE_ENV !== 'production',
    demonstration: e.DEMONSTRATION,
    trustProxy: e.TRUST_PROXY,
    hsts: e.HSTS,
    apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
    login: {
      windowMinutes: e.LOGIN_WINDOW_MINUTES,
      maxPerDocumentAddress: e.LOGIN_MAX_PER_DOCUMENT_ADDRESS,
      maxPerAddress: e.LOGIN_MAX_PER_ADDRESS,
      documentFreeAttempts: e.LOGIN_DOCUMENT_FREE_ATTEMPTS,
      documentMaxDelaySeconds: e.LOGIN_DOCUMENT_MAX_DELAY_SECONDS,
      knownAddressDays: e.LOGIN_KNOWN_ADDRESS_DAYS,
    },
    limits: {
      registration: { max: e.REGISTRATION_MAX_PER_ADDRESS, windowMinutes: e.REGISTRATION_WINDOW_MINUTES },
      webhook: { max: e.WEBHOOK_MAX_PER_ADDRESS, windowMinutes: e.WEBHOOK_WINDOW_MINUTES },
      partner: { max: e.PARTNER_MAX_PER_KEY, maxPerAddress: e.PARTNER_MAX_PER_ADDRESS, windowMinutes: e.PARTNER_WINDOW_MINUTES },
    },
    http: {
      requestMs: e.HTTP_REQUEST_TIMEOUT_MS,
      headersMs: e.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      connectionMs: e.HTTP_CONNECTION_TIMEOUT_MS,
    },
    argon2: { memoryCost: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    pix: {
      provider: e.PIX_PROVIDER,
      receiverKey: e.PIX_RECEIVER_KEY,
      merchantName: e.PIX_MERCHANT_NAME,
      merchantCity: e.PIX_MERCHANT_CITY,
      webhookToken: e.PIX_WEBHOOK_TOKEN ?? DEV_PIX_WEBHOOK_TOKEN,
      transferValidationToken: e.ASAAS_TRANSFER_VALIDATION_TOKEN ?? (e.NODE_ENV === 'production' ? null : DEV_TRANSFER_VALIDATION_TOKEN),
      asaas:
        e.ASAAS_API_URL && e.ASAAS_API_KEY
          ? { apiUrl: e.ASAAS_API_URL.replace(/\/+$/, ''), apiKey: e.ASAAS_API_KEY, timeoutMs: e.ASAAS_TIMEOUT_MS }
          : null,
      automatic: {
        enabled: e.PIX_AUTOMATIC_ENABLED ?? e.PIX_PROVIDER === 'local',
        cycleIntervalMs: e.PIX_AUTOMATIC_CYCLE_INTERVAL_MINUTES * 60_000,
      },
    },
    serverUrl: (e.SERVER_URL ?? serverUrlOf(e.HOST ?? '127.0.0.1', e.PORT)).replace(/\/+$/, ''),
    metricsToken: e.METRICS_TOKEN ?? null,
    exports: { maxInFlight: e.EXPORTS_MAX_IN_FLIGHT, stallMs: e.EXPORT_STALL_TIMEOUT_MS },
    duplicatePassageMinutes: e.DUPLICATE_PASSAGE_MINUTES,
    driverCalls: {
      withdrawalsPerHour: e.WITHDRAWALS_PER_HOUR,
      chargesPerHour: e.PIX_CHARGES_PER_HOUR,
      chargesPending: e.PIX_CHARGES_PENDING_MAX,
    },
    payoutLimitDefaults: {
      perWithdrawal: e.PAYOUT_LIMIT_PER_WITHDRAWAL_DEFAULT,
      daily: e.PAYOUT_LIMIT_DAILY_DEFAULT,
      night: e.PAYOUT_LIMIT_NIGHT_DEFAULT,
    },
    clock: clockFrom(e.CLOCK_START),
    push: {
      vapid: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : null,
      subject: e.VAPID_SUBJECT ?? DEV_VAPID_SUBJECT,
      serviceHosts: pushServiceHosts(e.PUSH_SERVICE_HOSTS),
      allowLoopback: e.NODE_ENV !== 'production',
      drainIntervalMs: e.PUSH_DRAIN_INTERVAL_MS,
      maxAttempts: e.PUSH_MAX_ATTEMPTS,
      timeoutMs: e.PUSH_TIMEOUT_MS,
    },
    retention: retentionConfig(e, cwd),
  };
}
