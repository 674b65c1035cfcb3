import type { Page } from '@playwright/test';
import { demoDriver, expect, openLive, settled, signIn, test } from '../support/fixtures.js';

/**
 * Safe to touch on a phone (WCAG 2.5.5 Target Size (Enhanced): 44 × 44 CSS px; Apple's 44 pt,
 * Android's 48 dp): every control a driver can tap on every screen, at 360 px, has a target of at
 * least 44 × 44. The target is what a finger hits, measured by hit-testing (elementFromPoint): the
 * element's box grown by a ::before/::after touch area or the label that belongs to it.
 */

const MIN_TARGET = 44;
/** How far beyond its box a target may reach (a grown hit area is at most a few px each side). */
const REACH = 24;

/** Every interactive element, as the brief of the test lists them (labels count as their input's). */
const INTERACTIVE = [
  'a[href]',
  'button',
  'input:not([type="hidden"])',
  'select',
  'textarea',
  'summary',
  '[role="button"]',
  '[role="radio"]',
  '[role="checkbox"]',
  '[role="tab"]',
  '[role="link"]',
  '[role="switch"]',
  '[role="menuitem"]',
].join(', ');

interface SmallTarget {
  what: string;
  width: number;
  height: number;
}

/**
 * Measures, in the page, every visible interactive element: scrolled to the middle of the screen, the
 * run of points around its first hit point that still hit it (or its label), across and down.
 */
function smallTargets(page: Page, scope: string): Promise<SmallTarget[]> {
  return page.evaluate(
    ({ selector, min, reach, scope }) => {
      const describe = (el: Element): string => {
        const input = el as HTMLInputElement;
        const labelText = Array.from(input.labels ?? [])
          .map((l) => l.textContent?.trim())
          .join(' ');
        const name =
          el.getAttribute('aria-label') ??
          (labelText || el.textContent?.trim() || el.getAttribute('title') || el.getAttribute('name') || el.getAttribute('href') || '');
        const role = el.getAttribute('role') ?? (el.tagName === 'INPUT' ? `input[${input.type}]` : el.tagName.toLowerCase());
        return `${role} "${name.replace(/\s+/g, ' ').slice(0, 60)}"`;
      };
      const shown = (el: Element) => {
        const r = el.getBoundingClientRect();
        return r.width > 1 && r.height > 1 && el.checkVisibility({ opacityProperty: false, visibilityProperty: true });
      };
      const found: { what: string; width: number; height: number }[] = [];
      const elements = Array.from(document.querySelector(scope)?.querySelectorAll(selector) ?? []).filter(
        (el) =>
          !el.closest('[aria-hidden="true"], [inert]') && (shown(el) || Array.from((el as HTMLInputElement).labels ?? []).some(shown)),
      );
      for (const el of elements) {
        const labels = Array.from((el as HTMLInputElement).labels ?? []);
        const parts = [el, ...labels];
        const hits = (x: number, y: number) => {
          const at = document.elementFromPoint(x, y);
          return at !== null && parts.some((p) => p === at || p.contains(at));
        };
        (shown(el) ? el : labels.find(shown))?.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        const boxes = parts.filter(shown).map((p) => p.getBoundingClientRect());
        // The first point that hits it: its middle, or else any point of its box (a 4 px grid).
        let start: [number, number] | undefined;
        for (const r of boxes) {
          const middle: [number, number] = [r.left + r.width / 2, r.top + r.height / 2];
          if (hits(...middle)) start = middle;
          for (let y = r.top + 1; !start && y < r.bottom; y += 4)
            for (let x = r.left + 1; !start && x < r.right; x += 4) if (hits(x, y)) start = [x, y];
          if (start) break;
        }
        if (!start) {
          found.push({ what: `${describe(el)} (covered: nothing of it can be tapped)`, width: 0, height: 0 });
          continue;
        }
        const [sx, sy] = start;
        const left = Math.min(...boxes.map((r) => r.left)) - reach;
        const right = Math.max(...boxes.map((r) => r.right)) + reach;
        const top = Math.min(...boxes.map((r) => r.top)) - reach;
        const bottom = Math.max(...boxes.map((r) => r.bottom)) + reach;
        // Grown until it is wide and tall enough (or stops hitting it): a large control is not walked whole.
        let x0 = sx;
        let x1 = sx;
        while (x1 - x0 + 1 < min && x0 - 1 > left && hits(x0 - 1, sy)) x0 -= 1;
        while (x1 - x0 + 1 < min && x1 + 1 < right && hits(x1 + 1, sy)) x1 += 1;
        while (x1 - x0 + 1 < min && x0 - 1 > left && hits(x0 - 1, sy)) x0 -= 1;
        let y0 = sy;
        let y1 = sy;
        while (y1 - y0 + 1 < min && y0 - 1 > top && hits(sx, y0 - 1)) y0 -= 1;
        while (y1 - y0 + 1 < min && y1 + 1 < bottom && hits(sx, y1 + 1)) y1 += 1;
        while (y1 - y0 + 1 < min && y0 - 1 > top && hits(sx, y0 - 1)) y0 -= 1;
        const width = Math.round(x1 - x0 + 1);
        const height = Math.round(y1 - y0 + 1);
        if (width < min || height < min) found.push({ what: describe(el), width, height });
      }
      window.scrollTo(0, 0);
      return found;
    },
    { selector: INTERACTIVE, min: MIN_TARGET, reach: REACH, scope },
  );
}

/** The screen as a driver sees it once its data has arrived. */
async function ready(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Carregando…')).toHaveCount(0);
  await settled(page);
}

/**
 * Measures the screen open now (or its open dialog: `scope`): each target too small, named with the
 * screen (a soft check: every screen is measured).
 */
async function measure(page: Page, screen: string, scope = 'body') {
  await ready(page);
  const small = (await smallTargets(page, scope)).map((s) => `${screen}: ${s.what} ${s.width} × ${s.height}`);
  // Said at once, screen by screen, so one run names every small target of every screen.
  expect.soft(small, `Targets under ${MIN_TARGET} × ${MIN_TARGET} px on ${screen}`).toEqual([]);
}

test.describe('at 360 px', () => {
  test('every control on every screen has a target of at least 44 × 44 px', async ({ page }) => {
    test.setTimeout(600_000);

    await openLive(page, '/login');
    await measure(page, '/login');
    await openLive(page, '/registrar');
    await measure(page, '/registrar');
    await openLive(page, '/privacidade');
    await measure(page, '/privacidade');

    await signIn(page, demoDriver.cpfCnpj, demoDriver.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    // The demo driver has not accepted the terms: the dashboard with the terms bar, then accepted.
    await expect(page.getByRole('region', { name: 'Termos de Uso' })).toBeVisible();
    await measure(page, '/dashboard with the terms bar');
    const bar = page.getByRole('region', { name: 'Termos de Uso' });
    await bar.getByRole('checkbox').check();
    await bar.getByRole('button', { name: 'Aceitar' }).click();
    await expect(bar).toBeHidden();
    await page.goto('/dashboard');
    await measure(page, '/dashboard');

    const screens = [
      '/saldo/comprar',
      '/saldo/recarga-automatica',
      '/tags/listar',
      '/tags/adicionar',
      '/tags/detalhes/RIO2A18',
      '/tags/detalhes/BRA2E19',
      '/tags/detalhes/MGA1234',
      '/tags/editar/RIO2A18',
      '/veiculos/listar',
      '/vpos/listar',
      '/extrato/listar',
      '/contestacoes',
      '/livre-passagem',
      '/configuracoes',
      '/nao-existe',
    ];
    for (const screen of screens) {
      await page.goto(screen);
      await measure(page, screen);
    }

    // A dialog: 'Ativar' asks first.
    await page.goto('/tags/detalhes/MGA1234');
    await ready(page);
    await page.getByRole('button', { name: 'Ativar', exact: true }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await measure(page, "/tags/detalhes/MGA1234, the dialog 'Ativar tag'", '[role="dialog"]');
    await page.getByRole('dialog').getByRole('button', { name: 'Voltar' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Sacar with a new key: the password field (and its eye) shows.
    await page.goto('/saldo/retirar');
    await ready(page);
    await page.getByLabel('Tipo da Chave Pix').selectOption('EMAIL');
    await page.getByLabel('Chave Pix', { exact: true }).fill('nova.chave@example.com');
    await measure(page, '/saldo/retirar with a new key');

    // A receipt, opened from the statement.
    await page.goto('/extrato/listar');
    await ready(page);
    const receipt = await page
      .getByRole('link', { name: /comprovante/i })
      .first()
      .getAttribute('href');
    expect(receipt).toBeTruthy();
    await page.goto(receipt!);
    await measure(page, receipt!);

    // The statement's second page (its pages' links).
    await page.goto('/extrato/listar?page=2');
    await measure(page, '/extrato/listar?page=2');

    await page.goto('/blocked-access');
    await measure(page, '/blocked-access');
  });
});
