import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as markup from '../../src/early-paint/pageMarkup';
import { clearHeldPress, clickHeldBeforeHydration, forgetHeldClick } from '../../src/early-paint/typedBeforeHydration';

/**
 * Issue 25: a press before the app is live is seen at once. boot.ts (the prerendered page's first
 * script, run here as the page runs it) marks the pressed button 'Aguarde…' and adds a status for
 * a screen reader; the app takes both off once live, before making the press.
 */

const html = document.documentElement;

function page(markupHtml: string): HTMLElement {
  document.body.innerHTML = markupHtml;
  return document.getElementById('root')!;
}

const marked = () => [...document.querySelectorAll(`[${markup.HELD_PRESS_ATTRIBUTE}]`)].map((element) => element.textContent);
const status = () => document.getElementById(markup.HELD_STATUS_ID);

beforeAll(async () => {
  // Its listeners, on the document, from here on (the module runs once).
  await import('../../src/early-paint/scripts/boot');
});

afterAll(() => {
  document.body.innerHTML = '';
  html.removeAttribute(markup.HELD_CLICK_ATTRIBUTE);
  html.removeAttribute(markup.HELD_SUBMIT_ATTRIBUTE);
});

describe('a press before the app is live', () => {
  it("marks the pressed button 'Aguarde…' at once, only the last one pressed, and tells a screen reader", async () => {
    delete html.dataset.live;
    const root = page(
      '<div id="root"><button type="button">Bloquear</button><button type="button">Cancelar</button><a href="/tags/listar">Voltar</a></div>',
    );
    const [block, cancel] = root.querySelectorAll('button');
    block!.click();
    expect(block).toHaveAttribute(markup.HELD_PRESS_ATTRIBUTE, markup.HELD_PRESS_TEXT);
    expect(markup.HELD_PRESS_TEXT).toBe('Aguarde…');
    expect(JSON.parse(html.getAttribute(markup.HELD_CLICK_ATTRIBUTE) ?? '{}')).toEqual({ index: 0, text: 'Bloquear' });
    // The status is outside #root (React never sees it) and gets its words once it is in the page.
    expect(status()).not.toBeNull();
    expect(root.contains(status())).toBe(false);
    expect(status()).toHaveAttribute('role', 'status');
    await expect.poll(() => status()?.textContent).toBe(markup.HELD_STATUS_TEXT);

    cancel!.click();
    expect(marked()).toEqual(['Cancelar']);
    expect(document.querySelectorAll(`#${markup.HELD_STATUS_ID}`)).toHaveLength(1);

    // Once live: the marks go before the press is made, which the app's own state then shows.
    const pressed: (string | null)[] = [];
    root.addEventListener('click', (event) => pressed.push((event.target as Element).getAttribute(markup.HELD_PRESS_ATTRIBUTE)));
    html.dataset.live = 'true';
    clearHeldPress();
    clickHeldBeforeHydration();
    expect(pressed).toEqual([null]);
    expect(marked()).toEqual([]);
    expect(status()).toBeNull();
  });

  it("a form's submit is held and its button marked, as a press is", () => {
    delete html.dataset.live;
    const root = page('<div id="root"><form><input name="valor" /><button type="submit">Comprar</button></form></div>');
    const submit = root.querySelector('button')!;
    submit.click();
    expect(html.getAttribute(markup.HELD_SUBMIT_ATTRIBUTE)).toBe('0');
    expect(submit).toHaveAttribute(markup.HELD_PRESS_ATTRIBUTE, markup.HELD_PRESS_TEXT);
    // A page drawn anew instead of hydrated (main.tsx): its buttons are not the ones pressed, nothing stays marked.
    forgetHeldClick();
    expect(marked()).toEqual([]);
    expect(status()).toBeNull();
  });

  it('a press or submit held before the app is live reaches no handler of the page, so it is made once, by the app', () => {
    // React listens on #root once it has hydrated, which may be before AppRoot marks the page live.
    delete html.dataset.live;
    const root = page('<div id="root"><button type="button">Ativar tag</button><form><button type="submit">Comprar</button></form></div>');
    const reached: string[] = [];
    // A submit button's click goes on (its form's submit is what is held).
    root.addEventListener('click', (event) => {
      if ((event.target as Element).matches('[type="button"]')) reached.push(`click ${(event.target as Element).textContent ?? ''}`);
    });
    root.addEventListener('submit', () => reached.push('submit'));
    const [activate, buy] = root.querySelectorAll('button');
    activate!.click();
    buy!.click();
    expect(reached).toEqual([]);
    expect(html.getAttribute(markup.HELD_SUBMIT_ATTRIBUTE)).toBe('0');

    html.dataset.live = 'true';
    html.setAttribute(markup.HELD_CLICK_ATTRIBUTE, JSON.stringify({ index: 0, text: 'Ativar tag' }));
    clearHeldPress();
    clickHeldBeforeHydration();
    expect(reached).toEqual(['click Ativar tag']);
    html.removeAttribute(markup.HELD_SUBMIT_ATTRIBUTE);
  });

  it('once the app is live, a press is the app’s: nothing is marked', () => {
    html.dataset.live = 'true';
    const root = page('<div id="root"><button type="button">Bloquear</button></div>');
    root.querySelector('button')!.click();
    expect(marked()).toEqual([]);
    expect(status()).toBeNull();
  });
});
