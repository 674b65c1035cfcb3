import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEV_PIX_WEBHOOK_TOKEN,
  DEV_TRANSFER_VALIDATION_TOKEN,
  loadConfig,
  SUPPORT_WHATSAPP_PLACEHOLDER,
} from '../../src/config.js';
import { dialectOf, sqlitePath } from '../../src/db/connection.js';
import { TEST_PRIVACY_OFFICER_ENV, TEST_VAPID_ENV } from '../helpers/app.js';

describe('config', () => {
  it('has working defaults for development', () => {
    const c = loadConfig({}, '/repo');
    expect(c).toMatchObject({
      env: 'development',
      port: 3000,
      // Decision 61: development listens on this machine only unless HOST says otherwise.
      host: '127.0.0.1',
      databaseUrl: `file:${path.resolve('/repo', 'data', 'portal.sqlite')}`,
      sessionTtlHours: 168,
      supportWhatsapp: SUPPORT_WHATSAPP_PLACEHOLDER,
      demoSeed: true,
      hsts: false,
      trustProxy: 0,
      login: {
        windowMinutes: 15,
        maxPerDocumentAddress: 5,
        maxPerAddress: 100,
        documentFreeAttempts: 10,
        documentMaxDelaySeconds: 900,
        knownAddressDays: 30,
      },
      limits: {
        registration: { max: 10, windowMinutes: 60 },
        webhook: { max: 300, windowMinutes: 1 },
        partner: { max: 6000, maxPerAddress: 12_000, windowMinutes: 1 },
      },
      http: { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 72_000, connectionMs: 60_000 },
      argon2: { memoryCost: 19456, timeCost: 2 },
      demonstration: false,
      exports: { maxInFlight: 4, stallMs: 30_000 },
    });
    expect(c.webDist.endsWith(path.join('apps', 'web', 'dist'))).toBe(true);
  });

  it('turns the demo seed off in production unless a demonstration asks for it (founding decision 28: production-settings.test.ts)', () => {
    const production = {
      NODE_ENV: 'production',
      DEMONSTRATION: 'true',
      PIX_WEBHOOK_TOKEN: `token-${randomBytes(16).toString('hex')}`,
      ...TEST_VAPID_ENV,
      ...TEST_PRIVACY_OFFICER_ENV,
    };
    expect(loadConfig(production).demoSeed).toBe(false);
    // Decision 61: production listens on every interface, behind its proxy, unless HOST says otherwise.
    expect(loadConfig(production).host).toBe('0.0.0.0');
    expect(loadConfig({ ...production, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...production, DEMO_SEED: 'true' }).demoSeed).toBe(true);
    expect(() => loadConfig({ ...production, DEMONSTRATION: 'false', DEMO_SEED: 'true' })).toThrow(/DEMO_SEED: /);
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'abc', SUPPORT_WHATSAPP: '+55 (11) 9', DEMO_SEED: 'talvez' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc', SUPPORT_WHATSAPP: '+55 (11) 9' });
    } catch (e) {
      expect((e as Error).message).toContain('PORT');
      expect((e as Error).message).toContain('SUPPORT_WHATSAPP');
    }
  });

  it('Pix: local provider by default, with a development webhook token and the BR Code receiver', () => {
    expect(loadConfig({}, '/repo').pix).toEqual({
      provider: 'local',
      receiverKey: 'pix@portaldomotorista.com.br',
      merchantName: 'PORTAL DO MOTORISTA',
      merchantCity: 'SAO PAULO',
      webhookToken: DEV_PIX_WEBHOOK_TOKEN,
      transferValidationToken: DEV_TRANSFER_VALIDATION_TOKEN,
      asaas: null,
      // Decision 58: Pix Automático on with the local provider (its simulated bank), every hour.
      automatic: { enabled: true, cycleIntervalMs: 3_600_000 },
    });
    expect(loadConfig({ PORT: '4000' }).serverUrl).toBe('http://127.0.0.1:4000');
    expect(loadConfig({ PORT: '4000', HOST: '0.0.0.0' }).serverUrl).toBe('http://127.0.0.1:4000');
    expect(loadConfig({ PORT: '4000', HOST: '192.168.0.7' }).serverUrl).toBe('http://192.168.0.7:4000');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ SERVER_URL: 'http://10.0.0.5:3000/' }).serverUrl).toBe('http://10.0.0.5:3000');
  });

  it('Pix: asaas needs its URL and key; production needs its own webhook token', () => {
    expect(() => loadConfig({ PIX_PROVIDER: 'asaas' })).toThrow(/ASAAS_API_URL[\s\S]*ASAAS_API_KEY/);
    const c = loadConfig({
      PIX_PROVIDER: 'asaas',
      ASAAS_API_URL: 'https://api-sandbox.asaas.com/',
      ASAAS_API_KEY: 'k',
      ASAAS_TIMEOUT_MS: '5000',
    });
    // Decision 58: Asaas enables Pix Automático only on request, so it is off until said.
    expect(c.pix.automatic).toEqual({ enabled: false, cycleIntervalMs: 3_600_000 });
    expect(c.pix.asaas).toEqual({ apiUrl: 'https://api-sandbox.asaas.com', apiKey: 'k', timeoutMs: 5000 });
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PIX_WEBHOOK_TOKEN: obrigatório em produção/);
    expect(() => loadConfig({ PIX_WEBHOOK_TOKEN: 'curto' })).toThrow(/PIX_WEBHOOK_TOKEN/);
    // Asaas accepts a webhook authToken of 32 to 255 characters: so does the configuration.
    expect(() => loadConfig({ PIX_WEBHOOK_TOKEN: 'x'.repeat(31) })).toThrow(/PIX_WEBHOOK_TOKEN: pelo menos 32 caracteres/);
    expect(() => loadConfig({ PIX_WEBHOOK_TOKEN: 'x'.repeat(256) })).toThrow(/PIX_WEBHOOK_TOKEN: no máximo 255 caracteres/);
    expect(loadConfig({ PIX_WEBHOOK_TOKEN: 'x'.repeat(32) }).pix.webhookToken).toHaveLength(32);
    expect(loadConfig({ PIX_WEBHOOK_TOKEN: 'x'.repeat(255) }).pix.webhookToken).toHaveLength(255);
    expect(() => loadConfig({ PIX_WEBHOOK_TOKEN: DEV_PIX_WEBHOOK_TOKEN })).not.toThrow();
    // The transfer validation's own token: 32 to 255 characters.
    expect(() => loadConfig({ ASAAS_TRANSFER_VALIDATION_TOKEN: 'x'.repeat(31) })).toThrow(
      /ASAAS_TRANSFER_VALIDATION_TOKEN: pelo menos 32 caracteres/,
    );
    expect(() => loadConfig({ ASAAS_TRANSFER_VALIDATION_TOKEN: 'x'.repeat(256) })).toThrow(
      /ASAAS_TRANSFER_VALIDATION_TOKEN: no máximo 255 caracteres/,
    );
    expect(loadConfig({ ASAAS_TRANSFER_VALIDATION_TOKEN: 'v'.repeat(32) }).pix.transferValidationToken).toBe('v'.repeat(32));
    expect(() => loadConfig({ PIX_MERCHANT_CITY: 'SAO JOSE DOS CAMPOS' })).toThrow(/PIX_MERCHANT_CITY/);
    expect(() => loadConfig({ PIX_PROVIDER: 'banco' })).toThrow(/PIX_PROVIDER/);
  });

  it('TRUST_PROXY: no proxy, a hop count or the proxies\' addresses; never "trust everyone"', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,loopback,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'loopback',
      '::1',
      'fd00::/8',
    ]);
    for (const all of ['true', 'TRUE', 'all', 'yes', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: all })).toThrow(/TRUST_PROXY: .*qualquer cliente.*TRUST_PROXY=1.*TRUST_PROXY=10\.0\.0\.5/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '11' })).toThrow(/TRUST_PROXY: no máximo 10/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.interno,10.0.0.0/33' })).toThrow(
      /TRUST_PROXY: .*proxy\.interno, 10\.0\.0\.0\/33/,
    );
  });

  it('limits and timeouts come from the environment; the headers timeout fits in the request timeout', () => {
    const c = loadConfig({
      LOGIN_MAX_PER_DOCUMENT_ADDRESS: '3',
      REGISTRATION_MAX_PER_ADDRESS: '7',
      PARTNER_WINDOW_MINUTES: '5',
      HTTP_REQUEST_TIMEOUT_MS: '20000',
    });
    expect(c.login.maxPerDocumentAddress).toBe(3);
    expect(c.limits.registration.max).toBe(7);
    expect(c.limits.partner.windowMinutes).toBe(5);
    expect(c.http.requestMs).toBe(20_000);
    expect(() => loadConfig({ LOGIN_MAX_PER_ADDRESS: '0' })).toThrow(/LOGIN_MAX_PER_ADDRESS/);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: não pode passar de HTTP_REQUEST_TIMEOUT_MS/,
    );
  });

  it('reads the database URL', () => {
    expect(dialectOf('postgres://u@h/db')).toBe('postgres');
    expect(dialectOf('postgresql://u@h/db')).toBe('postgres');
    expect(dialectOf('file:/tmp/x.sqlite')).toBe('sqlite');
    expect(sqlitePath('file:/tmp/x.sqlite')).toBe('/tmp/x.sqlite');
    expect(sqlitePath('sqlite:./x.sqlite')).toBe('./x.sqlite');
    expect(sqlitePath('./data/x.sqlite')).toBe('./data/x.sqlite');
  });
});
