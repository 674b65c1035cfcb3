import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverMessages } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { DEV_PIX_WEBHOOK_TOKEN, DEV_TRANSFER_VALIDATION_TOKEN, loadConfig } from '../../src/config.js';
import { guessableReason } from '../../src/guessable-secret.js';
import {
  PRIVACY_OFFICER_EXAMPLE,
  PRODUCTION_SECRETS,
  SECRET_MINIMUM_LENGTH,
  SHIPPED_SECRET_VALUES,
} from '../../src/production-settings.js';
import type { SecretVariable } from '../../src/production-settings.js';
import { TEST_PRIVACY_OFFICER_ENV, TEST_VAPID_ENV } from '../helpers/app.js';
import { buildServer, PROCESS_ENV, startServer, stopServer } from '../helpers/server-process.js';
import type { ServerProcess } from '../helpers/server-process.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const texts = serverMessages.productionSettings;
const SECRETS = Object.keys(SECRET_MINIMUM_LENGTH) as SecretVariable[];

/** A secret as an operator makes one (openssl rand -hex 32): new each run, so no test leans on one value. */
const fresh = (label: string) => `${label}-${randomBytes(24).toString('hex')}`;

/** What a real production sets: Asaas, its own tokens. */
const PRODUCTION = {
  NODE_ENV: 'production',
  PIX_PROVIDER: 'asaas',
  ASAAS_API_URL: 'https://api.asaas.com',
  ASAAS_API_KEY: `$aact_prod_${fresh('chave')}`,
  PIX_WEBHOOK_TOKEN: fresh('webhook'),
  ASAAS_TRANSFER_VALIDATION_TOKEN: fresh('validacao'),
  ...TEST_VAPID_ENV,
  ...TEST_PRIVACY_OFFICER_ENV,
};

/** The refusal lines of loadConfig, '' when it accepts the environment. */
function refusals(env: Record<string, string>): string {
  try {
    loadConfig(env);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('founding decision 28: production refuses development settings, naming the variable', () => {
  it('a real production starts', () => {
    const config = loadConfig(PRODUCTION);
    expect(config).toMatchObject({ env: 'production', demoSeed: false, demonstration: false });
    expect(config.pix.provider).toBe('asaas');
  });

  it('the development webhook token the README prints, and the local provider it comes with, are refused', () => {
    const message = refusals({ NODE_ENV: 'production', PIX_WEBHOOK_TOKEN: DEV_PIX_WEBHOOK_TOKEN });
    expect(message).toContain(`  PIX_WEBHOOK_TOKEN: ${texts.shippedSecret}`);
    expect(message).toContain(`  PIX_PROVIDER: ${texts.localPixProvider}`);
    // PIX_PROVIDER written out as local: the same.
    expect(refusals({ ...PRODUCTION, PIX_PROVIDER: 'local' })).toContain(`  PIX_PROVIDER: ${texts.localPixProvider}`);
  });

  it('every value the repository ships is refused for every secret, also in other case or inside a longer value', () => {
    for (const variable of SECRETS) {
      for (const shipped of SHIPPED_SECRET_VALUES) {
        for (const value of [shipped, shipped.toUpperCase(), `${shipped}-2`, `x${shipped}`]) {
          expect(refusals({ ...PRODUCTION, [variable]: value }), `${variable}=${value}`).toContain(`  ${variable}: ${texts.shippedSecret}`);
        }
      }
    }
    expect(SHIPPED_SECRET_VALUES).toEqual(expect.arrayContaining([DEV_PIX_WEBHOOK_TOKEN, DEV_TRANSFER_VALIDATION_TOKEN]));
  });

  it('every secret shorter than its minimum is refused; at the minimum it is accepted', () => {
    expect(SECRET_MINIMUM_LENGTH).toEqual({
      PIX_WEBHOOK_TOKEN: 32,
      ASAAS_TRANSFER_VALIDATION_TOKEN: 32,
      ASAAS_API_KEY: 32,
      METRICS_TOKEN: 32,
    });
    for (const variable of SECRETS) {
      const min = SECRET_MINIMUM_LENGTH[variable];
      const short = refusals({ ...PRODUCTION, [variable]: 'k7Qz'.repeat(8).slice(0, min - 1) });
      expect(short, variable).toMatch(new RegExp(`  ${variable}: .*32 caracteres`));
      expect(refusals({ ...PRODUCTION, [variable]: randomBytes(min).toString('base64url').slice(0, min) }), variable).toBe('');
    }
    // METRICS_TOKEN: 16 characters were enough before, and still are outside production.
    expect(refusals({ ...PRODUCTION, METRICS_TOKEN: 'metricas-16-char' })).toContain(
      `  METRICS_TOKEN: ${texts.secretTooShort.replace('{min}', '32')}`,
    );
    expect(loadConfig({ METRICS_TOKEN: 'metricas-16-char' }).metricsToken).toBe('metricas-16-char');
  });

  it('decision 61: the transfer validation token equal to the webhook token is refused, naming both; so is any secret equal to another', () => {
    const shared = fresh('compartilhado');
    const message = refusals({ ...PRODUCTION, PIX_WEBHOOK_TOKEN: shared, ASAAS_TRANSFER_VALIDATION_TOKEN: shared });
    expect(message).toContain(`  ASAAS_TRANSFER_VALIDATION_TOKEN: ${texts.secretEqualTo.replace('{other}', 'PIX_WEBHOOK_TOKEN')}`);
    expect(message.split('\n')).toHaveLength(2);
    // Case and surrounding spaces do not make two tokens different.
    expect(refusals({ ...PRODUCTION, PIX_WEBHOOK_TOKEN: shared, ASAAS_TRANSFER_VALIDATION_TOKEN: ` ${shared.toUpperCase()}` })).toContain(
      '  ASAAS_TRANSFER_VALIDATION_TOKEN: igual a PIX_WEBHOOK_TOKEN',
    );
    expect(refusals({ ...PRODUCTION, METRICS_TOKEN: PRODUCTION.ASAAS_API_KEY })).toContain('  METRICS_TOKEN: igual a ASAAS_API_KEY');
    // Outside production, the development tokens may be anything (tests use one value for several).
    expect(() => loadConfig({ PIX_WEBHOOK_TOKEN: shared, ASAAS_TRANSFER_VALIDATION_TOKEN: shared })).not.toThrow();
  });

  it('decision 61: a secret one character repeated, a short piece repeated, a sequence or too few characters is refused, for every secret production reads', () => {
    expect(PRODUCTION_SECRETS).toEqual([...SECRETS, 'VAPID_PRIVATE_KEY']);
    const guessable = {
      fewDistinct: ['0'.repeat(32), 'x'.repeat(64), '01'.repeat(16), 'AbAbaBAB'.repeat(4), 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaabcd'],
      repeatedPattern: ['abcdef12'.repeat(4), 'k7Qz9x'.repeat(6), 'senha-do-portal-'.repeat(2)],
      sequence: [
        '0123456789abcdefghijklmnopqrstuvwxyz',
        'abcdefghijklmnopqrstuvwxyz012345',
        '9876543210zyxwvutsrqponmlkjihgfe',
        `token-${'0123456789abcdef'.repeat(3)}`,
      ],
      lowEntropy: ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabcdefghij', '000000000000000000000000000000000000000000000000009f3c1e7b'],
    } as const;
    for (const [reason, values] of Object.entries(guessable) as [keyof typeof guessable, readonly string[]][]) {
      for (const value of values) {
        expect(guessableReason(value), value).toBe(reason);
        for (const variable of PRODUCTION_SECRETS) {
          expect(refusals({ ...PRODUCTION, [variable]: value }), `${variable}=${value}`).toContain(
            `  ${variable}: ${texts.secretGuessable.replace('{reason}', texts.guessable[reason])}`,
          );
        }
      }
    }
    // What the operations guide says to run is never refused (openssl rand -hex 16 / -hex 32 / -base64 24).
    for (let i = 0; i < 2_000; i++) {
      for (const value of [randomBytes(16).toString('hex'), randomBytes(32).toString('hex'), randomBytes(24).toString('base64')]) {
        expect(guessableReason(value), value).toBeNull();
      }
    }
  });

  it('the demo driver is refused in production', () => {
    expect(refusals({ ...PRODUCTION, DEMO_SEED: 'true' })).toContain(`  DEMO_SEED: ${texts.demoSeed}`);
    expect(refusals({ ...PRODUCTION, DEMO_SEED: 'false' })).toBe('');
  });

  it('several refusals at once: one line each, every one naming its variable', () => {
    const message = refusals({
      NODE_ENV: 'production',
      PIX_WEBHOOK_TOKEN: DEV_PIX_WEBHOOK_TOKEN,
      DEMO_SEED: 'true',
      METRICS_TOKEN: 'curto-mas-16-chr',
    });
    const lines = message.split('\n').slice(1);
    expect(lines.map((l) => l.trim().split(':')[0]).sort()).toEqual([
      'DEMO_SEED',
      'METRICS_TOKEN',
      'PIX_PROVIDER',
      'PIX_WEBHOOK_TOKEN',
      'PRIVACY_OFFICER_EMAIL',
      'PRIVACY_OFFICER_NAME',
      'VAPID_PRIVATE_KEY',
      'VAPID_PUBLIC_KEY',
      'VAPID_SUBJECT',
    ]);
    expect(message.split('\n')[0]).toBe('Configuração inválida:');
  });

  it('a declared demonstration may use the local provider and the demo driver, never the real Asaas', () => {
    const demo = loadConfig({
      NODE_ENV: 'production',
      DEMONSTRATION: 'true',
      DEMO_SEED: 'true',
      PIX_WEBHOOK_TOKEN: fresh('demo'),
      ...TEST_VAPID_ENV,
      ...TEST_PRIVACY_OFFICER_ENV,
    });
    expect(demo).toMatchObject({ demonstration: true, demoSeed: true, pix: { provider: 'local' } });
    expect(refusals({ ...PRODUCTION, DEMONSTRATION: 'true' })).toContain(`  DEMONSTRATION: ${texts.demonstrationWithRealMoney}`);
    expect(refusals({ ...PRODUCTION, DEMONSTRATION: 'true', ASAAS_API_URL: 'https://api-sandbox.asaas.com' })).toBe('');
    // Even a demonstration keeps its own tokens.
    expect(refusals({ NODE_ENV: 'production', DEMONSTRATION: 'true', PIX_WEBHOOK_TOKEN: DEV_PIX_WEBHOOK_TOKEN })).toContain(
      `  PIX_WEBHOOK_TOKEN: ${texts.shippedSecret}`,
    );
  });

  it('decision 57: production brings its own VAPID pair and contact (a pair kept in the database is for development)', () => {
    for (const variable of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const) {
      const { [variable]: _left, ...without } = PRODUCTION;
      expect(refusals(without), variable).toContain(`  ${variable}: ${texts.vapidRequired}`);
      expect(refusals({ ...without, DEMONSTRATION: 'true', ASAAS_API_URL: 'https://api-sandbox.asaas.com' }), variable).toContain(
        `  ${variable}: ${texts.vapidRequired}`,
      );
    }
    expect(loadConfig(PRODUCTION).push).toMatchObject({
      vapid: { publicKey: TEST_VAPID_ENV.VAPID_PUBLIC_KEY, privateKey: TEST_VAPID_ENV.VAPID_PRIVATE_KEY },
      subject: TEST_VAPID_ENV.VAPID_SUBJECT,
      allowLoopback: false,
    });
    // A pair that is not one, or not a pair, or a contact that is neither mailto: nor https:.
    const other = webpush.generateVAPIDKeys();
    expect(refusals({ ...PRODUCTION, VAPID_PRIVATE_KEY: other.privateKey })).toMatch(
      / {2}VAPID_PRIVATE_KEY: não é a chave privada de VAPID_PUBLIC_KEY/,
    );
    expect(refusals({ ...PRODUCTION, VAPID_PUBLIC_KEY: 'abc' })).toMatch(/ {2}VAPID_PUBLIC_KEY: não é uma chave pública P-256/);
    expect(refusals({ ...PRODUCTION, VAPID_SUBJECT: 'http://portal.example' })).toMatch(/ {2}VAPID_SUBJECT: mailto:/);
    // Outside production, none is needed: the server keeps one pair in its database.
    expect(loadConfig({ NODE_ENV: 'development' }).push).toMatchObject({ vapid: null, allowLoopback: true });
  });

  it('decision 72: production names the real encarregado (LGPD art. 41), a demonstration too; development shows the example', () => {
    for (const variable of ['PRIVACY_OFFICER_NAME', 'PRIVACY_OFFICER_EMAIL'] as const) {
      const { [variable]: _left, ...without } = PRODUCTION;
      expect(refusals(without), variable).toContain(`  ${variable}: ${texts.privacyOfficerRequired}`);
      expect(refusals({ ...without, DEMONSTRATION: 'true', ASAAS_API_URL: 'https://api-sandbox.asaas.com' }), variable).toContain(
        `  ${variable}: ${texts.privacyOfficerRequired}`,
      );
    }
    // The documentation's example, as it is or in another case, is not an encarregado.
    expect(refusals({ ...PRODUCTION, PRIVACY_OFFICER_NAME: PRIVACY_OFFICER_EXAMPLE.name })).toContain(
      `  PRIVACY_OFFICER_NAME: ${texts.privacyOfficerExample}`,
    );
    expect(refusals({ ...PRODUCTION, PRIVACY_OFFICER_EMAIL: ` ${PRIVACY_OFFICER_EXAMPLE.email.toUpperCase()} ` })).toContain(
      `  PRIVACY_OFFICER_EMAIL: ${texts.privacyOfficerExample}`,
    );
    expect(refusals({ ...PRODUCTION, PRIVACY_OFFICER_EMAIL: 'privacidade@' })).toMatch(/ {2}PRIVACY_OFFICER_EMAIL: um endereço de e-mail/);
    expect(refusals({ ...PRODUCTION, PRIVACY_OFFICER_NAME: ' A ' })).toMatch(/ {2}PRIVACY_OFFICER_NAME: pelo menos 3 caracteres/);
    expect(loadConfig({ ...PRODUCTION, PRIVACY_OFFICER_NAME: '  Maria Souza ' }).privacyOfficer).toEqual({
      name: 'Maria Souza',
      email: TEST_PRIVACY_OFFICER_ENV.PRIVACY_OFFICER_EMAIL,
    });
    expect(loadConfig({ NODE_ENV: 'development' }).privacyOfficer).toEqual(PRIVACY_OFFICER_EXAMPLE);
  });

  it('development and tests change nothing: the local provider, the demo driver, the development tokens', () => {
    for (const env of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
      const config = loadConfig({ ...env, PIX_WEBHOOK_TOKEN: DEV_PIX_WEBHOOK_TOKEN, DEMO_SEED: 'true', METRICS_TOKEN: 'metricas-16-char' });
      expect(config).toMatchObject({
        demoSeed: true,
        demonstration: false,
        pix: { provider: 'local', webhookToken: DEV_PIX_WEBHOOK_TOKEN },
      });
    }
  });
});

/** Markdown, nginx and example environment files the repository ships (git's list, no node_modules). */
function documentationFiles(): string[] {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  return files.filter(
    (f) => /(^|\/)README\.md$/.test(f) || f.startsWith('docs/') || /(^|\/)\.env[^/]*$|\.env(\.example|\.sample)?$|\.example$/.test(f),
  );
}

/** The headers that carry the secrets: named in the docs, never values. */
const HEADER_NAMES = new Set(['asaas-access-token', 'x-api-key', 'authorization']);

/**
 * Values a document gives a secret: `VAR=value`, `VAR: value`, a backticked value on a table row
 * whose first cell is the variable, a header written with its value, and any quoted or backticked
 * token-like text (16 or more letters, digits, '-', '_', with a '-' or a digit, naming a token, a
 * secret, a key or a password). Placeholders (`...`, `<token>`, `$KEY`) are not values.
 */
function exampleSecretValues(text: string): string[] {
  const found = new Set<string>();
  const isPlaceholder = (v: string) =>
    v === '' || v.includes('...') || v.includes('…') || /^[<$[{]/.test(v) || /^[A-Z0-9_]+$/.test(v) || HEADER_NAMES.has(v.toLowerCase());
  const add = (v: string | undefined) => {
    const value = (v ?? '').replace(/^['"`]|['"`,;.)]+$/g, '');
    // Shorter than 8, or words: not a secret's value (and anything under 32 is refused for its length anyway).
    if (!isPlaceholder(value) && /^[\w~+/=.-]{8,}$/.test(value)) found.add(value);
  };
  const names = SECRETS.join('|');
  for (const m of text.matchAll(new RegExp(`\\b(?:${names})\\b\\s*[=:]\\s*(['"\`]?[^\\s'"\`|]+)`, 'g'))) add(m[1]);
  for (const line of text.split('\n')) {
    const firstCell = /^\s*\|([^|]*)\|/.exec(line)?.[1] ?? '';
    if (!new RegExp(`\\b(?:${names})\\b`).test(firstCell)) continue;
    for (const m of line.slice(line.indexOf(firstCell) + firstCell.length).matchAll(/`([^`]+)`/g)) {
      if (/^[\w.~+/=-]{8,}$/.test(m[1] ?? '') && !/^https?:/.test(m[1] ?? '')) add(m[1]);
    }
  }
  for (const m of text.matchAll(/(?:asaas-access-token|x-api-key)\s*:\s*([^\s'"`]+)|authorization:\s*bearer\s+([^\s'"`]+)/gi))
    add(m[1] ?? m[2]);
  for (const m of text.matchAll(/[`'"]([\w~+=-]{16,})[`'"]/g)) {
    const value = m[1] ?? '';
    if (/token|secret|segredo|senha|chave|key/i.test(value) && /[-\d]/.test(value)) add(value);
  }
  return [...found];
}

describe("founding decision 28: the repository's example secrets are all in the one list production refuses", () => {
  it("greps README, docs/ (nginx's file too) and example environment files", () => {
    const files = documentationFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/operations.md', 'docs/nginx/portal.conf']));
    const unknown: string[] = [];
    const seen = new Set<string>();
    for (const file of files) {
      for (const value of exampleSecretValues(fs.readFileSync(path.join(repoRoot, file), 'utf8'))) {
        seen.add(value);
        if (!SHIPPED_SECRET_VALUES.includes(value)) unknown.push(`${file}: ${value}`);
      }
    }
    expect(unknown, 'um valor de exemplo de segredo fora de SHIPPED_SECRET_VALUES (apps/server/src/production-settings.ts)').toEqual([]);
    // The grep finds what it is for: the token the README prints.
    expect(seen.has(DEV_PIX_WEBHOOK_TOKEN)).toBe(true);
  });

  it('the grep itself: finds assignments, table defaults, headers and quoted tokens; skips placeholders', () => {
    const sample = [
      'PIX_WEBHOOK_TOKEN=abc-def-ghi-jkl-mno METRICS_TOKEN=... ASAAS_API_KEY=$KEY',
      '| `METRICS_TOKEN` | `metrics-example-value` | Bearer |',
      "curl -H 'asaas-access-token: header-token-value-1' -H 'X-Api-Key: $KEY' -H 'Authorization: Bearer <METRICS_TOKEN>' -H 'Authorization: Bearer bearer-value-2'",
      'use `my-example-secret-token-1` or "outro-segredo-qualquer-1"',
      'ASAAS_TRANSFER_VALIDATION_TOKEN: validation-example',
      '  PIX_WEBHOOK_TOKEN: é um valor publicado no próprio repositório',
      '| `NODE_ENV` | `development` | `production` requires `PIX_WEBHOOK_TOKEN`; the `asaas-access-token` header; table `idempotency_keys` |',
    ].join('\n');
    expect(exampleSecretValues(sample).sort()).toEqual(
      [
        'abc-def-ghi-jkl-mno',
        'bearer-value-2',
        'header-token-value-1',
        'metrics-example-value',
        'my-example-secret-token-1',
        'outro-segredo-qualquer-1',
        'validation-example',
      ].sort(),
    );
  });
});

describe('founding decision 28: the server process', () => {
  let server: { main: string; remove: () => void };
  let running: ServerProcess | undefined;
  let webDist = '';

  beforeAll(async () => {
    server = await buildServer();
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-demo-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  }, 60_000);

  afterAll(async () => {
    await stopServer(running);
    server.remove();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('NODE_ENV=production with the README token exits non-zero, one Portuguese line per variable, before it listens', async () => {
    const child = spawn(process.execPath, [server.main], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        PIX_WEBHOOK_TOKEN: DEV_PIX_WEBHOOK_TOKEN,
        DEMO_SEED: 'true',
        DATABASE_URL: path.join(webDist, 'nunca.sqlite'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(out).toContain(`  PIX_WEBHOOK_TOKEN: ${texts.shippedSecret}`);
    expect(out).toContain(`  PIX_PROVIDER: ${texts.localPixProvider}`);
    expect(out).toContain(`  DEMO_SEED: ${texts.demoSeed}`);
    expect(out).not.toContain('Portal do Motorista em http');
    expect(fs.existsSync(path.join(webDist, 'nunca.sqlite'))).toBe(false);
  }, 30_000);

  it('a declared demonstration starts, says so in its log and on its pages', async () => {
    expect(PROCESS_ENV.DEMONSTRATION).toBe('true');
    running = await startServer(server.main, { DATABASE_URL: path.join(webDist, 'demo.sqlite'), WEB_DIST: webDist });
    expect(running.output()).toContain(texts.demonstrationStarted);
    const page = await fetch(`${running.url}/login`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(serverMessages.web.demonstration);
  }, 30_000);
});
