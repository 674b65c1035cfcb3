/**
 * The only script a prerendered page (build/prerenderPages.ts) loads itself. The page is already
 * drawn by its HTML, so:
 * - the app's code is fetched once the page is on screen: on a slow link its ~200 KB would
 *   otherwise share the bandwidth with the HTML that paints the screen;
 * - on the dashboard, the balance is asked for at once, in parallel, and written into its place
 *   (build-time templates of the app's own markup) before the app arrives; the app then adopts it
 *   (adoptEarlyBalance.ts) and hydrates the same markup. On a tag's detail page, the same for the
 *   vehicle and its tag (paintVehicle.ts, adoptEarlyVehicle.ts).
 * - a form submitted before the app is live is held, not sent by the browser (its fields would
 *   leave in a request, and the page would load again empty): the app submits it once live. A
 *   button pressed then (a tag's action painted early) is noted, and the app presses it once live.
 *   Either shows at once that it was seen (showHeld, issue 25).
 * Loaded with `async` from the <head>: the read is made while the HTML still arrives.
 * Built on its own into one file (build/earlyScripts.ts): what it imports (the names of markup.ts,
 * the domain's formatBrl, the stored token's read) is copied into it, never a chunk the app shares,
 * which would be one more round trip before the read is asked for. It must stay small (the build
 * refuses it over its budget; the detail page's painter is a script of its own). No inline script:
 * the CSP allows none.
 */

import { formatBrl } from '@portal/domain';
import { getActingAccountText, getToken } from '../../lib/storage';
import {
  ANSWER_ATTRIBUTE,
  BALANCE_PATH,
  EARLY_BALANCE_ATTRIBUTE,
  FIGURE_TEMPLATE_ATTRIBUTE,
  figureTemplateKey,
  SLOT_ATTRIBUTE,
} from '../balanceMarkup';
import {
  APP_META_NAME,
  HELD_CLICK_ATTRIBUTE,
  HELD_CLICK_BUTTONS,
  HELD_PRESS_ATTRIBUTE,
  HELD_PRESS_TEXT,
  HELD_STATUS_ID,
  HELD_STATUS_TEXT,
  HELD_SUBMIT_ATTRIBUTE,
  LIVE_ATTRIBUTE,
} from '../pageMarkup';
import {
  EARLY_VEHICLE_ATTRIBUTE,
  VEHICLE_ANSWER_ATTRIBUTE,
  VEHICLE_DETAIL_PATH,
  VEHICLE_PAINTER_ATTRIBUTE,
  VEHICLE_SLOT_ATTRIBUTE,
} from '../vehicleMarkup';
import type { paintVehicle } from './paintVehicle';

const APP_META = `meta[name="${APP_META_NAME}"]`;

/** How long the app waits for the read asked for first (see earlyRead). */
const EARLY_READ_FIRST_MS = 1500;

/** Set once the app's code starts loading: from then the page is the app's, boot.ts paints nothing. */
let appLoading = false;

const PRELOADS_PER_TASK = 4;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The entry and the chunks of the screen, from the page (build/prerenderPages.ts): all fetched at once
 * (modulepreload), then run one by one, each in its own task, so that the browser can paint and
 * answer a tap between them instead of running ~200 KB of modules in one long task.
 */
async function loadApp(): Promise<void> {
  if (appLoading) return;
  appLoading = true;
  const [entry, ...chunks] = (document.querySelector<HTMLMetaElement>(APP_META)?.content ?? '').split(' ').filter(Boolean);
  // A few links per task: each one starts a fetch, and the dashboard's ~45 at once were one long task.
  for (let start = 0; start < chunks.length; start += PRELOADS_PER_TASK) {
    for (const href of chunks.slice(start, start + PRELOADS_PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    await nextTask();
  }
  try {
    for (const href of chunks) {
      await import(/* @vite-ignore */ href);
      await nextTask();
    }
  } finally {
    // The entry last: it hydrates the page. Also when a chunk failed (it loads what it needs itself).
    if (entry) await import(/* @vite-ignore */ entry);
  }
}

/** Once the page is parsed (boot.ts is async: it may run while the HTML still arrives). */
const parsed = new Promise<void>((resolve) => {
  if (document.readyState !== 'loading') resolve();
  else document.addEventListener('DOMContentLoaded', () => resolve(), { once: true });
});

/** After the first frame is on screen; at once in a tab that is not shown (no frames there). */
function afterFirstPaint(run: () => void): void {
  if (document.visibilityState !== 'visible') return run();
  requestAnimationFrame(() => setTimeout(run, 0));
}

interface Balance {
  Saldo: number;
  SaldoTerceiro: number;
}

/**
 * One figure in the markup the app draws for it (Money), from the build's template for its sign,
 * written by the domain's formatBrl as the app writes it; null when the build drew no such template
 * (formatBrl throws for an amount no ledger holds: then nothing is painted).
 */
function figure(hero: boolean, reais: number): Element | null {
  const cents = Math.round(reais * 100);
  const template = document.querySelector<HTMLTemplateElement>(
    `template[${FIGURE_TEMPLATE_ATTRIBUTE}="${figureTemplateKey(hero, cents)}"]`,
  );
  const node = template?.content.firstElementChild?.cloneNode(true);
  if (!(node instanceof Element)) return null;
  node.textContent = formatBrl(cents);
  return node;
}

function paintBalance(panel: Element, balance: Balance): void {
  // The app's code is loading: the page is the app's now, and it asks for the balance itself.
  if (appLoading) return;
  const [heroSlot, otherSlot] = panel.querySelectorAll(`[${SLOT_ATTRIBUTE}]`);
  if (!heroSlot || !otherSlot || !Number.isFinite(balance.Saldo) || !Number.isFinite(balance.SaldoTerceiro)) return;
  // Both figures or neither: the app hydrates what is painted with the answer it adopts.
  const hero = figure(true, balance.Saldo);
  const other = figure(false, balance.SaldoTerceiro);
  if (!hero || !other) return;
  heroSlot.replaceWith(hero);
  otherSlot.replaceWith(other);
  panel.setAttribute('aria-busy', 'false');
  document.documentElement.setAttribute(ANSWER_ATTRIBUTE, JSON.stringify({ data: balance, at: Date.now() }));
}

/**
 * GET of the API with the driver's token; null when refused. A refusal's body is let go (cancelled):
 * left unread, the browser never ends the request (the page never goes quiet, as for a plate not found).
 */
function getJson(path: string, token: string): Promise<unknown> {
  const base = (import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '');
  return fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }).then((response) => {
    if (response.ok) return response.json() as Promise<unknown>;
    void response.body?.cancel();
    return null;
  });
}

/** The dashboard's balance, painted where its skeletons are. */
async function earlyBalance(token: string): Promise<void> {
  const balance = (await getJson(BALANCE_PATH, token)) as Balance | null;
  await parsed;
  const panel = document.querySelector(`#root [${EARLY_BALANCE_ATTRIBUTE}]`);
  if (balance && panel) paintBalance(panel, balance);
}

/**
 * A tag's detail page: the vehicle of the address (the server wrote its plate into the meta),
 * painted where 'Carregando...' is. The painter (paintVehicle.ts, its own chunk: the other pages'
 * first script stays small) is fetched beside the vehicle.
 */
async function earlyVehicle(token: string, plate: string, painterUrl: string): Promise<void> {
  const [answer, painter] = await Promise.all([
    getJson(`${VEHICLE_DETAIL_PATH}${encodeURIComponent(plate)}`, token),
    import(/* @vite-ignore */ painterUrl) as Promise<{ paintVehicle: typeof paintVehicle }>,
  ]);
  await parsed;
  const slot = document.querySelector(`#root [${VEHICLE_SLOT_ATTRIBUTE}]`);
  // The app's code is loading: the page is the app's now, and it reads the vehicle itself.
  if (appLoading || !answer || !slot || !painter.paintVehicle(slot, answer)) return;
  document.documentElement.setAttribute(VEHICLE_ANSWER_ATTRIBUTE, JSON.stringify({ data: answer, at: Date.now(), plate }));
}

/**
 * The one read a page is opened for (the dashboard's balance, a tag's vehicle) is asked for before
 * anything else and the app's code waits for its answer (at most EARLY_READ_FIRST_MS): on a slow
 * link it gets the connection to itself and shows about a second earlier; the buttons come alive
 * one round trip later than they would in parallel. Elsewhere (or signed out) nothing is asked, nor
 * while a company's account is chosen (decision 77): the app draws the page anew then (main.tsx),
 * and a Motorista's role would only be refused the balance.
 */
function earlyRead(): Promise<void> {
  const meta = document.querySelector(APP_META);
  // The app's own read of the session (no storage reads as none: the app sends the driver to /login).
  const token = getToken();
  if (!meta || !token || getActingAccountText() !== null) return Promise.resolve();
  const plate = meta.getAttribute(EARLY_VEHICLE_ATTRIBUTE);
  const painter = meta.getAttribute(VEHICLE_PAINTER_ATTRIBUTE);
  let read = Promise.resolve();
  if (meta.hasAttribute(EARLY_BALANCE_ATTRIBUTE)) read = earlyBalance(token);
  else if (plate && painter) read = earlyVehicle(token, plate, painter);
  // Offline or refused: the app shows what it has (decision 36) or sends the driver to /login.
  return read.catch(() => undefined);
}

/**
 * A press held for the app is seen at once: the button says 'Aguarde…' (global.css) and a status
 * outside #root tells a screen reader; only the last press is shown, as only it is made.
 */
function showHeld(button: Element | null): void {
  for (const earlier of document.querySelectorAll(`[${HELD_PRESS_ATTRIBUTE}]`)) earlier.removeAttribute(HELD_PRESS_ATTRIBUTE);
  button?.setAttribute(HELD_PRESS_ATTRIBUTE, HELD_PRESS_TEXT);
  let status = document.getElementById(HELD_STATUS_ID);
  if (status) return;
  status = document.createElement('div');
  status.id = HELD_STATUS_ID;
  status.setAttribute('role', 'status');
  document.body.append(status);
  // Written once the region is in the page: a live region's first content is not always read.
  const region = status;
  setTimeout(() => (region.textContent = HELD_STATUS_TEXT), 100);
}

const isLive = () => document.documentElement.getAttribute(LIVE_ATTRIBUTE) === 'true';

// Capture, before any handler of the page: until the app is live (AppRoot), a held submit or press
// goes no further. React may have hydrated before AppRoot marks the page live; let through, the
// app's own handler would make it too, and the app would then make the held one again.
document.addEventListener(
  'submit',
  (event) => {
    const form = event.target;
    if (isLive() || !(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    event.stopPropagation();
    document.documentElement.setAttribute(HELD_SUBMIT_ATTRIBUTE, String([...document.forms].indexOf(form)));
    showHeld(event instanceof SubmitEvent && event.submitter ? event.submitter : form.querySelector('[type="submit"]'));
  },
  true,
);

// A button has nothing to do before the app is live: the last one pressed is noted for the app.
document.addEventListener(
  'click',
  (event) => {
    const button = event.target instanceof Element ? event.target.closest(HELD_CLICK_BUTTONS) : null;
    if (isLive() || !button) return;
    event.stopPropagation();
    const index = [...document.querySelectorAll(HELD_CLICK_BUTTONS)].indexOf(button);
    document.documentElement.setAttribute(HELD_CLICK_ATTRIBUTE, JSON.stringify({ index, text: button.textContent }));
    showHeld(button);
  },
  true,
);

const readFirst = Promise.race([earlyRead(), new Promise((resolve) => setTimeout(resolve, EARLY_READ_FIRST_MS))]);
void Promise.all([readFirst, parsed]).then(() => afterFirstPaint(() => void loadApp()));
