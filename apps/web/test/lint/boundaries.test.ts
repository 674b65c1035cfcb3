import path from 'node:path';
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
    ['components/ -> lib/', 'components/ui/Fixture.tsx', ["import { getToken } from '../../lib/storage';"]],
    [
      'the first script -> lib/ and its names',
      'early-paint/scripts/fixture.ts',
      ["import { getToken } from '../../lib/storage';", "import { BALANCE_PATH } from '../balanceMarkup';"],
    ],
  ])('%s is allowed', async (_name, file, imports) => {
    expect(await complaints(file, imports.join('\n'))).toEqual([]);
  });

  it('a cycle of imports is refused (lib/errors.ts imports lib/http.ts)', async () => {
    const found = await complaints('lib/http.ts', "import { errorMessage } from './errors';\nexport const message = errorMessage;");
    expect(found).toEqual([expect.stringContaining('import-x/no-cycle')]);
  });
});
