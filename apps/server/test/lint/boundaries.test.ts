import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The server's layer rules in eslint.config.js (docs/architecture.md, "The server"): each one is
 * shown a small file that breaks it, at the path it guards, and must refuse it with its message;
 * the imports the layers allow must pass. Only the import rules run, without type information.
 */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const SRC = 'apps/server/src';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: repoRoot,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ruleFilter: ({ ruleId }) => ruleId.startsWith('import-x/'),
  });
});

/** The messages of the import rules for `code` as if it were the file at `filePath`. */
async function importProblems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${SRC}/${filePath}` });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const importing = (specifier: string, name: string) => `import { ${name} } from '${specifier}';\nexport const used = ${name};\n`;

const HTTP_BELOW = 'não importam http/ nem plugins/';
const BOTTOM = 'db/ e adapters/ ficam embaixo';
const SERVICE_NO_HTTP = 'Um serviço não conhece HTTP';
const MODULE_REFUSES = 'Um módulo recusa com o Refusal';
const HTTP_NO_PLUGINS = 'http/ não importa plugins/';
const SERVICES_ABOVE = 'Nada abaixo de services.ts o importa';

describe('the server layers, enforced by the lint', () => {
  it.each([
    ['modules/ledger/x.ts', '../../http/errors.js', 'HttpError'],
    ['modules/ledger/x.ts', '../../plugins/error-handler.js', 'registerErrorHandling'],
    ['db/x.ts', '../http/idempotency.js', 'IdempotencyStore'],
    ['db/x.ts', '../plugins/request-log.js', 'requestLog'],
    ['adapters/pix/x.ts', '../../http/route.js', 'publicRoute'],
    ['adapters/operators/x.ts', '../../plugins/security.js', 'securityHeaders'],
  ])('%s may not import %s (modules/ledger, db/ and adapters/ know nothing of HTTP)', async (file, specifier, name) => {
    expect(await importProblems(file, importing(specifier, name))).toEqual(expect.arrayContaining([expect.stringContaining(HTTP_BELOW)]));
  });

  it.each([
    ['adapters/operators/port.ts', '../../modules/ledger/ledger.js', 'post'],
    ['db/x.ts', '../modules/auth/sessions.js', 'SessionStore'],
  ])('%s may not import %s (db/ and adapters/ are the bottom)', async (file, specifier, name) => {
    expect(await importProblems(file, importing(specifier, name))).toEqual([expect.stringContaining(BOTTOM)]);
  });

  it.each([
    ['modules/tags/service.ts', '../../http/route.js', 'driverRoute'],
    ['modules/withdrawal/outcome.ts', '../../http/idempotency.js', 'IdempotencyStore'],
    ['modules/statement/export.ts', '../../plugins/compression.js', 'registerCompression'],
  ])('%s may not import %s (a service refuses with the domain, not with HTTP)', async (file, specifier, name) => {
    expect(await importProblems(file, importing(specifier, name))).toEqual(
      expect.arrayContaining([expect.stringContaining(SERVICE_NO_HTTP)]),
    );
  });

  it.each([
    ['modules/tags/routes.ts', '../../http/errors.js', 'HttpError'],
    ['modules/withdrawal/validation-route.ts', '../../plugins/error-handler.js', 'registerErrorHandling'],
  ])("even a module's routes (%s) may not import %s: refusals are the domain's", async (file, specifier, name) => {
    expect(await importProblems(file, importing(specifier, name))).toEqual([expect.stringContaining(MODULE_REFUSES)]);
  });

  it('http/ may not import plugins/ (the plugins use http/, not the other way)', async () => {
    expect(await importProblems('http/route.ts', importing('../plugins/error-handler.js', 'registerErrorHandling'))).toEqual([
      expect.stringContaining(HTTP_NO_PLUGINS),
    ]);
  });

  it.each([
    ['modules/tags/service.ts', '../../services.js'],
    ['db/seed.ts', '../services.js'],
    ['http/route.ts', '../services.js'],
    ['plugins/web.ts', '../services.js'],
    ['adapters/pix/index.ts', '../../services.js'],
    ['config.ts', './services.js'],
  ])('%s may not import services.ts (nothing below it reaches back)', async (file, specifier) => {
    expect(await importProblems(file, importing(specifier, 'createServices'))).toEqual(
      expect.arrayContaining([expect.stringContaining(SERVICES_ABOVE)]),
    );
  });

  it('a cycle of imports is refused', async () => {
    // modules/statement/service.ts imports its queries: the queries importing it back close a cycle
    // (within one module: between modules, the layers refuse the import first).
    expect(await importProblems('modules/statement/queries.ts', importing('./service.js', 'StatementService'))).toEqual([
      expect.stringContaining('import-x/no-cycle'),
    ]);
  });

  it.each([
    ['modules/ledger/x.ts', '../vpos/service.js', 'VpoService', 'modules/ledger (camada 1'],
    ['modules/passages/x.ts', '../vpos/money.js', 'refundVpoMoney', 'modules/passages (camada 4'],
    ['modules/pix/x.ts', '../withdrawal/outcome.js', 'WithdrawalOutcomes', 'modules/pix (camada 4'],
    ['modules/vpos/service.ts', '../partners/keys.js', 'partnerByKey', 'modules/vpos (camada 6'],
  ])('%s may not import %s (a module imports only modules of the layers below it)', async (file, specifier, name, message) => {
    expect(await importProblems(file, importing(specifier, name))).toEqual([expect.stringContaining(message)]);
  });

  it.each([
    ['modules/pix/x.ts', '../passages/record.js', 'recordPassages', 'modules/pix (camada 4'],
    ['modules/contests/x.ts', '../withdrawal/service.js', 'WithdrawalService', 'modules/contests (camada 5'],
  ])('%s may not import %s (a module of its own layer)', async (file, specifier, name, message) => {
    expect(await importProblems(file, importing(specifier, name))).toEqual([expect.stringContaining(message)]);
  });

  it('every folder under modules/ has one layer in modules/layers.json', () => {
    const modules = readdirSync(new URL(`../../src/modules`, import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const layers = JSON.parse(readFileSync(new URL('../../src/modules/layers.json', import.meta.url), 'utf8')) as string[][];
    const listed = layers.flat();
    expect([...listed].sort()).toEqual([...modules].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it.each([
    ['app.ts', './services.js', 'createServices'],
    ['main.ts', './services.js', 'createServices'],
    ['cli.ts', './services.js', 'createServices'],
    ['cli/x.ts', '../services.js', 'createServices'],
    ['startup/x.ts', '../services.js', 'createServices'],
    ['modules/tags/routes.ts', '../../http/route.js', 'driverRoute'],
    ['modules/withdrawal/validation-route.ts', '../../http/route.js', 'publicRoute'],
    ['modules/tags/service.ts', '../../db/connection.js', 'nowIso'],
    ['modules/withdrawal/x.ts', '../ledger/ledger.js', 'postGuardedDebit'],
    ['adapters/operators/x.ts', '../../db/connection.js', 'nowIso'],
    ['plugins/x.ts', '../http/errors.js', 'answerOf'],
    ['http/x.ts', '../modules/auth/sessions.js', 'SessionStore'],
    ['modules/partners/x.ts', '../passages/record.js', 'recordPassages'],
    ['modules/withdrawal/validation-route.ts', '../pix/webhook-auth.js', 'requireWebhookToken'],
  ])('%s may import %s', async (file, specifier, name) => {
    expect(await importProblems(file, importing(specifier, name))).toEqual([]);
  });
});
