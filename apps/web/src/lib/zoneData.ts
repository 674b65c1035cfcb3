import { checkSaoPauloZoneData, followSaoPauloZoneData, saoPauloZoneCheckSpan } from '@portal/domain';
import { getZoneDataCheck, setZoneDataCheck } from './storage';

const DAY_MS = 86_400_000;
/** The zone's data changes with the browser's updates; a summer time is decreed months ahead. */
const CHECK_EVERY_DAYS = 7;
/** How long after the page's `load` the check may wait for an idle moment. */
const CHECK_WITHIN_MS = 10_000;
/**
 * Days compared in one slice where no worker can run the check. The whole check (~1,130 days) was
 * one 90–110 ms task on a phone (4x slowed Chromium), in the middle of the page's first seconds; a
 * slice of 60 days is ~5 ms, but the first still builds the Intl formatter (62–140 ms).
 */
const SLICE_DAYS = 60;

/** Schedules `work` in the browser's next idle moment (Safari has no requestIdleCallback). */
function whenIdle(work: () => void, withinMs: number): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(work, { timeout: withinMs });
  else setTimeout(work, withinMs === 0 ? 0 : 1_000);
}

/** The check of saoPauloZoneCheckSpan, a slice per idle moment; `done` hears whether a summer time was found. */
function checkInSlices(now: number, done: (summerTime: boolean) => void): void {
  const { fromMs, toMs } = saoPauloZoneCheckSpan(now);
  let sliceFrom = Math.floor(fromMs / DAY_MS) * DAY_MS;
  const slice = () => {
    const sliceTo = Math.min(sliceFrom + (SLICE_DAYS - 1) * DAY_MS + DAY_MS / 2, toMs);
    if (checkSaoPauloZoneData(sliceFrom, sliceTo) !== null) return done(true);
    sliceFrom += SLICE_DAYS * DAY_MS;
    if (sliceFrom > toMs) return done(false);
    whenIdle(slice, 0);
  };
  slice();
}

/**
 * The whole check in a worker (zoneCheck.worker.ts): the zone data's loading and the ~1,130 days run
 * off the page's thread, so they never delay a tap. A browser that cannot start it (no module
 * workers, the script refused) makes the check in slices on the page instead.
 */
function checkInWorker(now: number, done: (summerTime: boolean) => void): void {
  if (typeof Worker !== 'function') return checkInSlices(now, done);
  let worker: Worker;
  try {
    worker = new Worker(new URL('./zoneCheck.worker.ts', import.meta.url), { type: 'module', name: 'fuso-sao-paulo' });
  } catch {
    return checkInSlices(now, done);
  }
  worker.addEventListener('message', (event: MessageEvent<boolean>) => {
    worker.terminate();
    // The worker's finding is its own copy of the rule: the page's dates follow the data from now on.
    if (event.data) followSaoPauloZoneData();
    done(event.data);
  });
  worker.addEventListener('error', () => {
    worker.terminate();
    checkInSlices(now, done);
  });
  worker.postMessage(now);
}

/**
 * São Paulo's time on screen is UTC−3 by arithmetic while this browser's zone data agrees (domain
 * dates.ts): a screen's first render never builds an Intl formatter (the check costs ~90 ms on a
 * phone, most of it loading the zone data). Once the page is live and the browser idle, at most once
 * a week, the data is compared over the days the portal shows (a month back, three years ahead), in
 * a worker; a summer time found there makes every date follow the data at once
 * (DateTime re-renders) and, kept in localStorage, from the first render of the next visits. A check
 * that agrees again forgets it.
 */
export function startSaoPauloZoneCheck(now: number = Date.now()): void {
  const last = getZoneDataCheck();
  if (last?.summerTime) followSaoPauloZoneData();
  const today = Math.floor(now / DAY_MS);
  if (last && today >= last.checkedOn && today - last.checkedOn < CHECK_EVERY_DAYS) return;
  const record = (summerTime: boolean) => setZoneDataCheck({ checkedOn: today, summerTime });
  // Started once the browser is idle: the worker's script never competes with the page's own.
  const check = () => whenIdle(() => checkInWorker(now, record), CHECK_WITHIN_MS);
  if (document.readyState === 'complete') check();
  else window.addEventListener('load', check, { once: true });
}
