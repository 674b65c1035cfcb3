import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SUPPORT_WHATSAPP_PLACEHOLDER } from '../src/config.js';
import { dialectOf, sqlitePath } from '../src/db/connection.js';

describe('config', () => {
  it('has working defaults for development', () => {
    const c = loadConfig({}, '/repo');
    expect(c).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: `file:${path.resolve('/repo', 'data', 'portal.sqlite')}`,
      sessionTtlHours: 168,
      supportWhatsapp: SUPPORT_WHATSAPP_PLACEHOLDER,
      demoSeed: true,
      hsts: false,
      login: { maxFailuresPerDocument: 5, maxFailuresPerIp: 100, windowMinutes: 15 },
      argon2: { memoryCost: 19456, timeCost: 2 },
    });
    expect(c.webDist.endsWith(path.join('apps', 'web', 'dist'))).toBe(true);
  });

  it('turns the demo seed off in production unless asked', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).demoSeed).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEMO_SEED: 'true' }).demoSeed).toBe(true);
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

  it('reads the database URL', () => {
    expect(dialectOf('postgres://u@h/db')).toBe('postgres');
    expect(dialectOf('postgresql://u@h/db')).toBe('postgres');
    expect(dialectOf('file:/tmp/x.sqlite')).toBe('sqlite');
    expect(sqlitePath('file:/tmp/x.sqlite')).toBe('/tmp/x.sqlite');
    expect(sqlitePath('sqlite:./x.sqlite')).toBe('./x.sqlite');
    expect(sqlitePath('./data/x.sqlite')).toBe('./data/x.sqlite');
  });
});
