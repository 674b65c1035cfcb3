import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * Development/test webhook token (documented in the README): anyone who knows it can confirm
 * payments, so production refuses to start without its own PIX_WEBHOOK_TOKEN.
 */
export const DEV_PIX_WEBHOOK_TOKEN = 'dev-webhook-token-portal-do-motorista';

/** Placeholder support number (Brazil +55, DDD 11): replace it with the real one via SUPPORT_WHATSAPP. */
export const SUPPORT_WHATSAPP_PLACEHOLDER = '5511999999999';

const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/server/src (tsx) and apps/server/dist (bundle) are both one level below apps/server. */
const defaultWebDist = path.resolve(here, '..', '..', 'web', 'dist');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_POOL_MAX: positiveInt.default(10),
  SESSION_TTL_HOURS: positiveInt.default(168),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().min(1).optional(),
  SUPPORT_WHATSAPP: z
    .string()
    .regex(/^\d{10,15}$/, 'apenas dígitos, com código do país (ex.: 5511999999999)')
    .default(SUPPORT_WHATSAPP_PLACEHOLDER),
  DEMO_SEED: bool.optional(),
  TRUST_PROXY: bool.default(false),
  HSTS: bool.default(false),
  LOGIN_MAX_FAILURES_PER_DOCUMENT: positiveInt.default(5),
  LOGIN_MAX_FAILURES_PER_IP: positiveInt.default(100),
  LOGIN_FAILURE_WINDOW_MINUTES: positiveInt.default(15),
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(8).default(19456),
  ARGON2_TIME_COST: positiveInt.default(2),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  PIX_PROVIDER: z.enum(['local', 'asaas']).default('local'),
  PIX_RECEIVER_KEY: z.string().trim().min(1).max(77).default('pix@portaldomotorista.com.br'),
  PIX_MERCHANT_NAME: z.string().trim().min(1).max(25, 'no máximo 25 caracteres (BR Code)').default('PORTAL DO MOTORISTA'),
  PIX_MERCHANT_CITY: z.string().trim().min(1).max(15, 'no máximo 15 caracteres (BR Code)').default('SAO PAULO'),
  PIX_WEBHOOK_TOKEN: z.string().min(16, 'pelo menos 16 caracteres').optional(),
  ASAAS_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  ASAAS_API_KEY: z.string().min(1).optional(),
  ASAAS_TIMEOUT_MS: positiveInt.default(10_000),
  SERVER_URL: z.url({ protocol: /^https?$/ }).optional(),
})
  .superRefine((e, ctx) => {
    if (e.PIX_PROVIDER === 'asaas') {
      if (!e.ASAAS_API_URL) ctx.addIssue({ code: 'custom', path: ['ASAAS_API_URL'], message: 'obrigatório com PIX_PROVIDER=asaas' });
      if (!e.ASAAS_API_KEY) ctx.addIssue({ code: 'custom', path: ['ASAAS_API_KEY'], message: 'obrigatório com PIX_PROVIDER=asaas' });
    }
    if (e.NODE_ENV === 'production' && !e.PIX_WEBHOOK_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['PIX_WEBHOOK_TOKEN'], message: 'obrigatório em produção' });
    }
  });

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string;
  databasePoolMax: number;
  sessionTtlHours: number;
  logLevel: string;
  webDist: string;
  supportWhatsapp: string;
  demoSeed: boolean;
  trustProxy: boolean;
  hsts: boolean;
  login: { maxFailuresPerDocument: number; maxFailuresPerIp: number; windowMinutes: number };
  argon2: { memoryCost: number; timeCost: number };
  shutdownTimeoutMs: number;
  pix: PixConfig;
  /** Where operator commands (pix:pay) reach the running server. */
  serverUrl: string;
}

export interface PixConfig {
  provider: 'local' | 'asaas';
  receiverKey: string;
  merchantName: string;
  merchantCity: string;
  webhookToken: string;
  asaas: { apiUrl: string; apiKey: string; timeoutMs: number } | null;
}

export class ConfigError extends Error {}

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
    host: e.HOST,
    databaseUrl: e.DATABASE_URL ?? `file:${path.resolve(cwd, 'data', 'portal.sqlite')}`,
    databasePoolMax: e.DATABASE_POOL_MAX,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ? path.resolve(cwd, e.WEB_DIST) : defaultWebDist,
    supportWhatsapp: e.SUPPORT_WHATSAPP,
    demoSeed: e.DEMO_SEED ?? e.NODE_ENV !== 'production',
    trustProxy: e.TRUST_PROXY,
    hsts: e.HSTS,
    login: {
      maxFailuresPerDocument: e.LOGIN_MAX_FAILURES_PER_DOCUMENT,
      maxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
      windowMinutes: e.LOGIN_FAILURE_WINDOW_MINUTES,
    },
    argon2: { memoryCost: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    pix: {
      provider: e.PIX_PROVIDER,
      receiverKey: e.PIX_RECEIVER_KEY,
      merchantName: e.PIX_MERCHANT_NAME,
      merchantCity: e.PIX_MERCHANT_CITY,
      webhookToken: e.PIX_WEBHOOK_TOKEN ?? DEV_PIX_WEBHOOK_TOKEN,
      asaas:
        e.ASAAS_API_URL && e.ASAAS_API_KEY
          ? { apiUrl: e.ASAAS_API_URL.replace(/\/+$/, ''), apiKey: e.ASAAS_API_KEY, timeoutMs: e.ASAAS_TIMEOUT_MS }
          : null,
    },
    serverUrl: (e.SERVER_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
  };
}
