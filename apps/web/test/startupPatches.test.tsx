import { DEFAULT_THEME, MantineProvider, mergeMantineTheme } from '@mantine/core';
import { act } from '@testing-library/react';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterAll, describe, expect, it } from 'vitest';
import { formReadyInTransition, lazyDefaultVariables, portalMountInTransition, stableId } from '../build/startupPatches';
import { theme } from '../src/app/theme';
import { LIVE_ATTRIBUTE } from '../src/early-paint/pageMarkup';

const require = createRequire(import.meta.url);
const packageRoot = (styleFile: string) => path.dirname(path.dirname(require.resolve(styleFile)));
const coreRoot = packageRoot('@mantine/core/styles/Grid.css');
const hooksRoot = path.join(coreRoot, '../hooks');
const formRoot = path.dirname(require.resolve('react-hook-form/package.json'));
const cacheRoot = path.join(coreRoot, '../../.cache');
mkdirSync(cacheRoot, { recursive: true });
const cache = mkdtempSync(path.join(cacheRoot, 'startup-patches-'));

afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** Mantine's module changed by the build, run from a copy that imports Mantine's own neighbours. */
async function changedModule<T>(file: string, change: (code: string) => string): Promise<T> {
  const folder = `${path.dirname(file)}/`;
  const copy = path.join(cache, `${path.basename(file, '.mjs')}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    copy,
    change(readFileSync(file, 'utf8')).replaceAll('from "./', `from "${folder}`).replaceAll('from "../', `from "${folder}../`),
  );
  return (await import(/* @vite-ignore */ copy)) as T;
}

type Variables = { variables: Record<string, string>; light: Record<string, string>; dark: Record<string, string> };

describe("Mantine's default variables, computed at first use (build/startupPatches.ts)", () => {
  const file = path.join(coreRoot, 'esm/core/MantineProvider/MantineCssVariables/remove-default-variables.mjs');

  it('are no longer computed when the module runs, and leave out the same variables', async () => {
    expect(lazyDefaultVariables(readFileSync(file, 'utf8'))).not.toMatch(/^const defaultCssVariables = /m);
    type Module = { removeDefaultVariables: (input: Variables) => Variables };
    const changed = await changedModule<Module>(file, lazyDefaultVariables);
    const original = (await import(/* @vite-ignore */ file)) as Module;
    const full = mergeMantineTheme(DEFAULT_THEME, theme);
    const input = {
      variables: { '--mantine-scale': '1', '--own': 'x' },
      light: { '--mantine-color-white': '#fff', '--mantine-color-road-8': full.colors.road?.[8] ?? '' },
      dark: {},
    };
    const cleaned = changed.removeDefaultVariables(input);
    expect(cleaned).toEqual(original.removeDefaultVariables(input));
    expect(cleaned.variables).toEqual({ '--own': 'x' });
  });

  it('stops the build if Mantine changes that module', () => {
    expect(() => lazyDefaultVariables('const other = 1;')).toThrow(/remove-default-variables/);
  });
});

describe("Mantine's useId keeps React's id (build/startupPatches.ts)", () => {
  const file = path.join(hooksRoot, 'esm/use-id/use-id.mjs');

  /** A field's id in the prerendered page, then once hydrated and its effects run. */
  async function idsAcrossHydration(useId: (staticId?: string) => string) {
    let renders = 0;
    function Field() {
      renders += 1;
      const id = useId();
      return <input id={id} aria-label="Valor" />;
    }
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(<Field />);
    const prerendered = container.querySelector('input')!.id;
    renders = 0;
    const root = await act(async () => hydrateRoot(container, <Field />));
    const hydrated = container.querySelector('input')!.id;
    act(() => root.unmount());
    container.remove();
    return { prerendered, hydrated, renders };
  }

  it('the prerendered id stays, with no second render after hydration', async () => {
    const { useId } = await changedModule<{ useId: (staticId?: string) => string }>(file, stableId);
    const { prerendered, hydrated, renders } = await idsAcrossHydration(useId);
    expect(prerendered).toMatch(/^mantine-/);
    expect(hydrated).toBe(prerendered);
    expect(renders).toBe(1);
    // Mantine's own: a random id and a second render, in the task that makes the page live.
    const original = await idsAcrossHydration(((await import(/* @vite-ignore */ file)) as { useId: (s?: string) => string }).useId);
    expect(original.hydrated).not.toBe(original.prerendered);
    expect(original.renders).toBe(2);
  });

  it('an id given to the component is used as it is', async () => {
    const { useId } = await changedModule<{ useId: (staticId?: string) => string }>(file, stableId);
    function Field() {
      return <input id={useId('valor')} aria-label="Valor" />;
    }
    expect(renderToString(<Field />)).toContain('id="valor"');
  });

  it('stops the build if Mantine changes useId', () => {
    expect(() => stableId('function useId() {}')).toThrow(/use-id/);
  });
});

/**
 * Renders in one synchronous commit, as the commit that makes a page live: `during` is read right
 * after it (what a layout-effect update rendered in that same task), `after` once React is idle.
 */
async function aroundCommit<T>(element: ReactNode, read: () => T): Promise<{ during: T; after: T }> {
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  let during: T | undefined;
  await act(async () => {
    flushSync(() => root.render(element));
    during = read();
  });
  const after = read();
  act(() => root.unmount());
  container.remove();
  return { during: during as T, after };
}

describe("react-hook-form's ready mark, a transition (build/startupPatches.ts)", () => {
  const file = path.join(formRoot, 'dist/index.esm.mjs');
  type FormModule = { useForm: (options: { defaultValues: { valor: string } }) => { register: (name: 'valor') => object } };

  /** The form's renders (as the app's forms, it never reads formState.isReady). */
  async function formRenders(module: FormModule) {
    let renders = 0;
    function Form() {
      renders += 1;
      const form = module.useForm({ defaultValues: { valor: '' } });
      return <input {...form.register('valor')} aria-label="Valor" />;
    }
    return aroundCommit(<Form />, () => renders);
  }

  it('renders the form once in the commit, and its ready mark after', async () => {
    const patched = await formRenders(await changedModule<FormModule>(file, formReadyInTransition));
    expect(patched).toEqual({ during: 1, after: 2 });
    // The library's own: the second render in the same task.
    const original = await formRenders((await import(/* @vite-ignore */ file)) as FormModule);
    expect(original).toEqual({ during: 2, after: 2 });
  });

  it('stops the build if react-hook-form changes useForm', () => {
    expect(() => formReadyInTransition('function useForm() {}')).toThrow(/react-hook-form/);
  });
});

describe("Mantine's Portal, mounted in a transition until the app is live (build/startupPatches.ts)", () => {
  const file = path.join(coreRoot, 'esm/components/Portal/Portal.mjs');
  type PortalModule = { Portal: (props: { children: ReactNode }) => ReactNode };
  const shown = () => document.body.textContent?.includes('Aviso') ?? false;

  async function portalShown({ Portal }: PortalModule) {
    return aroundCommit(
      <MantineProvider>
        <Portal>
          <p>Aviso</p>
        </Portal>
      </MantineProvider>,
      shown,
    );
  }

  it('shows its children after the commit that hydrates, and at once when the app is live', async () => {
    const patched = await changedModule<PortalModule>(file, portalMountInTransition);
    expect(await portalShown(patched)).toEqual({ during: false, after: true });
    document.documentElement.setAttribute(LIVE_ATTRIBUTE, 'true');
    try {
      expect(await portalShown(patched)).toEqual({ during: true, after: true });
    } finally {
      document.documentElement.removeAttribute(LIVE_ATTRIBUTE);
    }
    // Mantine's own: always in the same task.
    expect(await portalShown((await import(/* @vite-ignore */ file)) as PortalModule)).toEqual({ during: true, after: true });
  });

  it('stops the build if Mantine changes its Portal', () => {
    expect(() => portalMountInTransition('const Portal = 1;')).toThrow(/Portal/);
  });
});
