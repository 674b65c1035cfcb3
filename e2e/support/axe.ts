import type { Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** axe-core's own bundle, read once per worker. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const options: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  resultTypes: ['violations'],
};

/**
 * The page's axe violations (WCAG 2 A/AA), axe run in the page itself. axe is put in a document
 * once, so the second check of a look (the other width, the same document) only runs the rules.
 * The app has no frames, so nothing is lost by not gathering frames' results in a blank page as
 * @axe-core/playwright's analyze() does: that page and the script sent again on every call made a
 * check 1.8 s where this is 0.2–0.5 s (decision 67).
 */
export async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) await page.evaluate(axeSource);
  return page.evaluate(
    (o) =>
      (window as unknown as { axe: { run(c: Document, o: RunOptions): Promise<AxeResults> } }).axe
        .run(document, o)
        .then((r) => r.violations),
    options,
  );
}
