import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const WEB = 'apps/web/src';
const features = readdirSync(path.join(import.meta.dirname, WEB, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The web app's layers, lowest first (docs/architecture.md): every top-level entry of apps/web/src
 * has one, and imports from its own layer or those below it, judged by the path the import resolves
 * to. The zones below are built from this list; apps/web/test/lint/boundaries.test.ts proves each
 * fires and that every folder on disk is listed. `apart` names subfolders outside the order:
 * early-paint/build/ runs in Node at build time and renders the whole app.
 */
export const webLayers = [
  {
    path: 'pwa',
    message: 'pwa/ fica embaixo de tudo: o service worker roda à parte e não importa nada do app (o aviso de nova versão vem de main.tsx).',
  },
  {
    path: 'lib',
    message:
      'lib/ fica embaixo de tudo o que roda na página: importa só pwa/, nunca early-paint/, components/, features/, app/ nem main.tsx.',
  },
  {
    path: 'early-paint',
    apart: ['build'],
    message: 'early-paint/ vem antes das telas: importa só lib/ e pwa/ (o que ela lê de uma feature vai para lib/).',
  },
  {
    path: 'components',
    message: 'components/ não importa features/ nem app/: o que a tela compõe vai para app/ ou para a feature.',
  },
  { path: 'features', message: 'features/ não importa app/ nem main.tsx: o que o app monta ele passa à tela.' },
  { path: 'app', message: 'app/ não importa main.tsx: main.tsx é a entrada que monta o app.' },
  { path: 'main.tsx' },
];

/** The files of a layer: its folder, but for the subfolders kept apart (globs, so new files are in). */
const layerTarget = ({ path: entry, apart = [] }) =>
  apart.length === 0 ? `${WEB}/${entry}` : [`${WEB}/${entry}/*`, `${WEB}/${entry}/!(${apart.join('|')})/**`];

const webZones = [
  // No layer imports one above it.
  ...webLayers.flatMap((layer, index) => {
    const above = webLayers.slice(index + 1);
    if (above.length === 0) return [];
    return [{ target: layerTarget(layer), from: above.map((upper) => `${WEB}/${upper.path}`), message: layer.message }];
  }),
  // Features do not import each other: what two of them share lives in lib/ or components/.
  ...features.map((feature) => ({
    target: `${WEB}/features/${feature}`,
    from: `${WEB}/features`,
    except: [`./${feature}`],
    message: 'Uma feature não importa outra: o que elas compartilham vai para lib/ ou components/.',
  })),
  // The early paint's build side runs in Node at build time, and its scripts are built on their own.
  {
    target: webLayers.filter((layer) => layer.path !== 'early-paint').map((layer) => `${WEB}/${layer.path}`),
    from: [`${WEB}/early-paint/build`, `${WEB}/early-paint/scripts`],
    message: 'O app não importa early-paint/build/ (roda no build) nem early-paint/scripts/ (cada script é construído à parte).',
  },
];

const SERVER = 'apps/server/src';

/**
 * The server's layers (docs/architecture.md, "The server"): entry points and start-up above
 * services.ts, which builds the modules; http/ and plugins/ serve the calls; modules/ hold the
 * rules; modules/ledger, db/ and adapters/ at the bottom know nothing of HTTP. Zones by the path an
 * import resolves to (apps/server/test/lint/boundaries.test.ts proves each zone and the cycle rule fire).
 */
/**
 * The server's modules in layers, lowest first (apps/server/src/modules/layers.json, the one place
 * they are written): a module imports modules of lower layers only, never one of its own layer or
 * above (apps/server/test/lint/boundaries.test.ts shows a forbidden one refused).
 */
const moduleLayers = JSON.parse(readFileSync(path.join(import.meta.dirname, SERVER, 'modules/layers.json'), 'utf8'));
const moduleZones = moduleLayers.flatMap((layer, level) =>
  layer.flatMap((name) => {
    const notBelow = moduleLayers
      .slice(level)
      .flat()
      .filter((other) => other !== name);
    if (notBelow.length === 0) return [];
    return {
      target: `${SERVER}/modules/${name}`,
      from: notBelow.map((other) => `${SERVER}/modules/${other}`),
      message: `modules/${name} (camada ${level + 1} de modules/layers.json) só importa módulos das camadas abaixo dela; o que sobe vai por um evento ou um handler montado em services.ts.`,
    };
  }),
);

const serverZones = [
  ...moduleZones,
  {
    target: [`${SERVER}/modules/ledger`, `${SERVER}/db`, `${SERVER}/adapters`],
    from: [`${SERVER}/http`, `${SERVER}/plugins`],
    message: 'modules/ledger, db/ e adapters/ não conhecem HTTP: não importam http/ nem plugins/.',
  },
  {
    target: [`${SERVER}/db`, `${SERVER}/adapters`],
    from: [`${SERVER}/modules`],
    message: 'db/ e adapters/ ficam embaixo: não importam modules/ (Trx vem de db/connection.ts).',
  },
  {
    // A module's services and reads; its routes (routes.ts, *-route.ts) register calls with http/route.ts.
    target: `${SERVER}/modules/**/!(routes|*-route).ts`,
    from: [`${SERVER}/http`, `${SERVER}/plugins`],
    message: 'Um serviço não conhece HTTP: recusa com o Refusal de @portal/domain; só o routes.ts do módulo importa http/.',
  },
  {
    target: `${SERVER}/modules`,
    from: [`${SERVER}/plugins`, `${SERVER}/http/errors.ts`],
    message: 'Um módulo recusa com o Refusal de @portal/domain: HttpError e plugins/ são da camada HTTP.',
  },
  {
    target: `${SERVER}/http`,
    from: `${SERVER}/plugins`,
    message: 'http/ não importa plugins/: os plugins usam http/ (a sessão do motorista está em http/authenticate.ts).',
  },
  {
    target: [`${SERVER}/!(app|main|cli|services).ts`, `${SERVER}/!(cli|startup)/**`],
    from: `${SERVER}/services.ts`,
    message: 'Nada abaixo de services.ts o importa: só app.ts, main.ts, cli.ts, cli/ e startup/ montam os serviços.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/screenshots/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Type-aware rules over every TypeScript file of the projects (tsconfig.json's references).
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts', 'packages/*/vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: [`${WEB}/**/*.{ts,tsx}`],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
      // no-cycle reads the modules an import leads to: TypeScript ones too.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: webZones }],
      // A cycle of imports within the web app (the layers above keep them from crossing folders).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: [`${SERVER}/**/*.ts`],
    plugins: { 'import-x': importX },
    settings: {
      // The server imports its TypeScript files by their .js names (Node's ESM resolution).
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
      // no-cycle reads the modules an import leads to: TypeScript ones too.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: serverZones }],
      // A cycle of imports within the server (a service reaching back for what built it, two modules leaning on each other).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Command-line tools print to the terminal by design.
    files: ['apps/server/src/cli/**/*.ts', 'apps/server/src/cli.ts', 'bench/**/*.ts', 'e2e/**/*.ts', '**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
