import { DEFAULT_THEME, MantineProvider, mergeMantineTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { themeCssText } from '../../build/themeCss';
import { cssVariablesResolver, PLACEHOLDER_COLOR, theme, TOAST_MESSAGE_COLOR } from '../../src/app/theme';
import { showToast } from '../../src/components/ui/toast';
import { renderWithProviders } from '../support/utils';

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const WHITE = '#ffffff';

describe('readable colours (at least 4.5:1 on white)', () => {
  it.each([
    ['a placeholder', PLACEHOLDER_COLOR],
    ["a toast's message", TOAST_MESSAGE_COLOR],
  ])('%s', (_case, color) => {
    expect(contrast(color, WHITE)).toBeGreaterThanOrEqual(4.5);
  });

  it('a placeholder stays clearly lighter than typed text', () => {
    expect(contrast(theme.black ?? '#000000', WHITE) - contrast(PLACEHOLDER_COLOR, WHITE)).toBeGreaterThan(8);
  });

  it('the theme hands the placeholder grey to every input', () => {
    const variables = cssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme));
    expect(variables.light['--mantine-color-placeholder']).toBe(PLACEHOLDER_COLOR);
  });

  it("a toast's message under its title is written in that colour", async () => {
    renderWithProviders(<Notifications />);
    act(() => {
      showToast({ title: 'Ops, ocorreu um erro!', message: 'Banco fora do ar', tone: 'error' });
    });
    expect(await screen.findByText('Banco fora do ar')).toHaveStyle({ color: TOAST_MESSAGE_COLOR });
  });
});

describe("Mantine's stylesheets (imported per component: app/styles.ts)", () => {
  it('every component the app draws has its stylesheet, where Mantine has one', () => {
    const src = path.join(import.meta.dirname, '../../src');
    const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => readFileSync(path.join(src, file), 'utf8'));
    const used = new Set(
      sources.flatMap((source) =>
        [...source.matchAll(/import \{([^}]*)\} from '@mantine\/core'/g)].flatMap((match) =>
          (match[1] ?? '')
            .split(',')
            .map((name) => name.trim())
            .filter((name) => /^[A-Z]/.test(name)),
        ),
      ),
    );
    const stylesFolder = path.dirname(createRequire(import.meta.url).resolve('@mantine/core/styles/Grid.css'));
    const imported = new Set(
      sources.flatMap((source) => [...source.matchAll(/@mantine\/core\/styles\/(\w+)\.css/g)].map((match) => match[1])),
    );
    const missing = readdirSync(stylesFolder)
      .map((file) => /^(\w+)\.css$/.exec(file)?.[1])
      .filter((name): name is string => name !== undefined && used.has(name) && !imported.has(name));
    // Without Grid.css a tag's vehicle card drew its fields in one column at every width.
    expect(missing).toEqual([]);
  });
});

describe('the theme’s CSS variables computed at build time (build/themeCss.ts)', () => {
  it('are exactly what Mantine’s provider writes for the theme', () => {
    const { container } = render(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" deduplicateCssVariables={false}>
        <span />
      </MantineProvider>,
      { container: document.head.appendChild(document.createElement('div')) },
    );
    const mantine = container.querySelector('style[data-mantine-styles="true"]')?.innerHTML;
    expect(mantine).toContain('--mantine-color-road-8');
    expect(themeCssText()).toBe(mantine);
  });
});
