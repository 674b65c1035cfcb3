import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The web app's layers are enforced by the lint (eslint.config.js: import-x's no-restricted-paths
 * and no-cycle). Each rule is proven to fire here, with the real configuration, on small source
 * texts linted as if they were files of the app: the fixtures are these strings, not files of the
 * tree. The imports they name are real modules: a zone is judged by the path an import resolves to.
 */
const repo = path.resolve(import.meta.dirname, '../../../..');
const eslint = new ESLint({
  cwd: repo,
  overrideConfigFile: path.join(repo, 'eslint.config.js'),
  // The fixtures are no file of the TypeScript project: the rules that need its types stay out.
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId.startsWith('import-x/'),
});

/** The import rules' complaints about `code` as the file `file` of apps/web/src. */
async function complaints(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repo, 'apps/web/src', file) });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

const LIB = 'lib/ fica embaixo de tudo';
const COMPONENTS = 'components/ não importa features/ nem app/';
const FEATURES = 'Uma feature não importa outra';
const EARLY_PAINT = 'O app não importa early-paint/build/';
const PWA = 'pwa/ fica embaixo de tudo';
const BEFORE_SCREENS = 'early-paint/ vem antes das telas';
const BELOW_APP = 'features/ não importa app/ nem main.tsx';
const BELOW_ENTRY = 'app/ não importa main.tsx';

/** The ordered list of layers the zones are built from (eslint.config.js). */
const { webLayers } = (await import(pathToFileURL(path.join(repo, 'eslint.config.js')).href)) as {
  webLayers: readonly { path: string; apart?: readonly string[] }[];
};

describe('the web layers, enforced by the lint', () => {
  it.each([
    ['lib/ -> app/', 'lib/fixture.ts', "import { AppProviders } from '../app/AppProviders';", LIB],
    ['lib/ -> features/', 'lib/fixture.ts', "import { LoginPage } from '../features/auth/LoginPage';", LIB],
    ['lib/ -> components/', 'lib/fixture.ts', "import { toast } from '../components/ui/toast';", LIB],
    ['lib/ -> early-paint/', 'lib/fixture.ts', "import { takeEarlyAnswer } from '../early-paint/earlyAnswer';", LIB],
    ['lib/ -> app/, a type', 'lib/fixture.ts', "import type { ScreenKey } from '../app/routes';", LIB],
    ['lib/ -> app/, lazily', 'lib/fixture.ts', "export const load = () => import('../app/AppProviders');", LIB],
    ['components/ -> app/', 'components/ui/Fixture.tsx', "import { AppProviders } from '../../app/AppProviders';", COMPONENTS],
    ['components/ -> features/', 'components/ui/Fixture.tsx', "import { LoginPage } from '../../features/auth/LoginPage';", COMPONENTS],
    ['a feature -> another', 'features/tags/Fixture.tsx', "import { useAttention } from '../dashboard/api/attention';", FEATURES],
    ['a feature -> another, deeper', 'features/tags/detail/Fixture.tsx', "import { LoginPage } from '../../auth/LoginPage';", FEATURES],
    ['app/ -> the build-time render', 'app/Fixture.tsx', "import { renderPage } from '../early-paint/build/renderPage';", EARLY_PAINT],
    ['a feature -> a script', 'features/tags/Fixture.ts', "import '../../early-paint/scripts/paintVehicle';", EARLY_PAINT],
    ['pwa/ -> lib/', 'pwa/push/fixture.ts', "import { getToken } from '../../lib/storage';", PWA],
    ['pwa/ -> app/', 'pwa/fixture.tsx', "import { AppProviders } from '../app/AppProviders';", PWA],
    ['pwa/ -> components/', 'pwa/fixture.tsx', "import { UpdatePrompt } from '../components/ui/UpdatePrompt';", PWA],
    ['lib/ -> main.tsx', 'lib/fixture.ts', "import '../main';", LIB],
    [
      'early-paint/ -> features/',
      'early-paint/fixture.ts',
      "import { vehicleDetailQuery } from '../features/tags/api/queries';",
      BEFORE_SCREENS,
    ],
    ['early-paint/ -> app/, a type', 'early-paint/fixture.ts', "import type { ScreenKey } from '../app/routes';", BEFORE_SCREENS],
    ['early-paint/ -> components/', 'early-paint/fixture.ts', "import { pageTitle } from '../components/ui/usePageTitle';", BEFORE_SCREENS],
    [
      'a script -> features/',
      'early-paint/scripts/fixture.ts',
      "import { vehicleDetailQuery } from '../../features/tags/api/queries';",
      BEFORE_SCREENS,
    ],
    ['a feature -> app/', 'features/tags/Fixture.tsx', "import { AppProviders } from '../../app/AppProviders';", BELOW_APP],
    ['app/ -> main.tsx', 'app/Fixture.tsx', "import '../main';", BELOW_ENTRY],
  ])('%s is refused', async (_name, file, code, message) => {
    const found = await complaints(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('import-x/no-restricted-paths');
    expect(found[0]).toContain(message);
  });

  it.each([
    [
      'a feature -> its own files, lib/, components/, the early paint names',
      'features/tags/Fixture.tsx',
      [
        "import { vehicleDetailQuery } from './api/queries';",
        "import { tagKeys } from '../../lib/tags';",
        "import { toast } from '../../components/ui/toast';",
        "import { VEHICLE_VIEW_ATTRIBUTE } from '../../early-paint/vehicleMarkup';",
      ],
    ],
    [
      'app/ -> features/ and the early paint',
      'app/Fixture.tsx',
      [
        "import { DashboardPage } from '../features/dashboard/DashboardPage';",
        "import { adoptEarlyBalance } from '../early-paint/adoptEarlyBalance';",
      ],
    ],
    [
      'components/ -> lib/, pwa/ and the early paint',
      'components/ui/Fixture.tsx',
      [
        "import { getToken } from '../../lib/storage';",
        "import { PUSH_RENEWED_MESSAGE } from '../../pwa/push/renewal';",
        "import { notePageTitle } from '../../early-paint/prerendering';",
      ],
    ],
    ["lib/ -> the service worker's messages", 'lib/fixture.ts', ["import { readChangedMessage } from '../pwa/push/changes';"]],
    [
      'the early paint -> lib/ and pwa/',
      'early-paint/fixture.ts',
      ["import { tagKeys } from '../lib/tags';", "import { CHANGED_MESSAGE } from '../pwa/push/changes';"],
    ],
    [
      'the build-time render -> every layer',
      'early-paint/build/fixture.tsx',
      [
        "import { AppProviders } from '../../app/AppProviders';",
        "import { vehicleDetailQuery } from '../../features/tags/api/queries';",
        "import { pageTitle } from '../../components/ui/usePageTitle';",
      ],
    ],
    [
      'main.tsx -> app/, pwa/ and the early paint',
      'main.tsx',
      [
        "import { AppRoot } from './app/AppRoot';",
        "import { registerServiceWorker } from './pwa/registerServiceWorker';",
        "import { prerenderedPage } from './early-paint/pages';",
      ],
    ],
    [
      'the first script -> lib/ and its names',
      'early-paint/scripts/fixture.ts',
      ["import { getToken } from '../../lib/storage';", "import { BALANCE_PATH } from '../balanceMarkup';"],
    ],
  ])('%s is allowed', async (_name, file, imports) => {
    expect(await complaints(file, imports.join('\n'))).toEqual([]);
  });

  it('every top-level folder and module of apps/web/src has a layer, listed once', () => {
    const entries = readdirSync(path.join(repo, 'apps/web/src'), { withFileTypes: true })
      // vite-env.d.ts declares types for the compiler: no module imports it.
      .filter((entry) => entry.isDirectory() || (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')))
      .map((entry) => entry.name);
    const layered = webLayers.map((layer) => layer.path);
    expect(entries.length).toBeGreaterThan(0);
    expect(new Set(layered).size).toBe(layered.length);
    expect([...layered].sort()).toEqual([...entries].sort());
  });

  it('a cycle of imports is refused (lib/errors.ts imports lib/http.ts)', async () => {
    const found = await complaints('lib/http.ts', "import { errorMessage } from './errors';\nexport const message = errorMessage;");
    expect(found).toEqual([expect.stringContaining('import-x/no-cycle')]);
  });
});
