import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TextInput } from '@mantine/core';
import { render } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';

/**
 * The reviewed patches of patches/ (decision 65, docs/dependencies.md 'Patched libraries') are what
 * the tests, the prerender and the browser run: applied at install, or the install fails.
 */
const installed = path.resolve(import.meta.dirname, '../../../../node_modules');
const libraryFile = (file: string) => readFileSync(path.join(installed, file), 'utf8');

describe('the patched libraries, as installed', () => {
  it("Mantine's inputs keep React's id: a form field is drawn once when it mounts, not again by a layout effect", () => {
    let commits = 0;
    const { getByLabelText } = render(
      <AppProviders>
        <Profiler id="field" onRender={() => (commits += 1)}>
          <TextInput label="Placa" />
        </Profiler>
      </AppProviders>,
    );
    expect(commits).toBe(1);
    expect(getByLabelText('Placa').id).toMatch(/^mantine-/);
  });

  it("Mantine's default CSS variables are computed at first use, not as its module runs", () => {
    const file = libraryFile('@mantine/core/esm/core/MantineProvider/MantineCssVariables/remove-default-variables.mjs');
    expect(file).toContain('let defaultCssVariables;');
    expect(file).toContain('defaultCssVariables ??= defaultCssVariablesResolver(DEFAULT_THEME);');
  });

  it("useForm's ready mark is a transition", () => {
    expect(libraryFile('react-hook-form/dist/index.esm.mjs')).toMatch(
      /React\.startTransition\(\(\) => \{\s+updateFormState\(\(data\) => \(\{\s+\.\.\.data,\s+isReady: true,/,
    );
  });
});
