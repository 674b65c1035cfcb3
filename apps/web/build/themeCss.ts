import { convertCssVariables, DEFAULT_THEME, defaultCssVariablesResolver, mergeMantineTheme } from '@mantine/core';
import type { Plugin } from 'vite';
import { cssVariablesResolver, theme } from '../src/app/theme';

/** The module the app imports the theme's CSS variables from (src/app/AppProviders.tsx). */
const MODULE_ID = 'virtual:portal-theme-css';
const RESOLVED_ID = `\0${MODULE_ID}`;

/**
 * The theme's CSS variables, as Mantine's MantineProvider writes them in its <style
 * data-mantine-styles> (every variable, the scheme's on :root and :host; test/app/theme.test.tsx holds
 * the two equal). Mantine computes them in the first render of every page, about 14 ms on a desktop
 * (four times that on the simulated phone) inside the task that makes the page live: here they are
 * computed once, when the app is built.
 */
export function themeCssText(): string {
  const full = mergeMantineTheme(DEFAULT_THEME, theme);
  const base = defaultCssVariablesResolver(full);
  const own = cssVariablesResolver(full);
  const merged = {
    variables: { ...base.variables, ...own.variables },
    light: { ...base.light, ...own.light },
    dark: { ...base.dark, ...own.dark },
  };
  const scheme = convertCssVariables({
    variables: {},
    dark: { '--mantine-color-scheme': 'dark' },
    light: { '--mantine-color-scheme': 'light' },
  });
  return `${convertCssVariables(merged)}${scheme}`;
}

/** Serves `virtual:portal-theme-css` (its default export: the text above) to the build, the prerender and the tests. */
export function themeCss(): Plugin {
  return {
    name: 'portal-theme-css',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
    load: (id) => (id === RESOLVED_ID ? `export default ${JSON.stringify(themeCssText())};` : undefined),
  };
}
