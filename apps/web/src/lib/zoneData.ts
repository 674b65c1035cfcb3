import { checkSaoPauloZoneData, followSaoPauloZoneData, saoPauloZoneCheckSpan } from '@portal/domain';
import { getZoneDataCheck, setZoneDataCheck } from './storage';

const DAY_MS = 86_400_000;
/** The zone's data changes with the browser's updates; a summer time is decreed months ahead. */
const CHECK_EVERY_DAYS = 7;
/** How long after the page's `load` the check may wait for an idle moment. */
const CHECK_WITHIN_MS = 10_000;
/**
 * Days compared in one slice. The whole check (~1,130 days) was one 90–110 ms task on a phone (4x
 * slowed Chromium), in the middle of the page's first seconds; a slice of 60 days is ~5 ms.
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
  whenIdle(slice, CHECK_WITHIN_MS);
}

/**
 * São Paulo's time on screen is UTC−3 by arithmetic while this browser's zone data agrees (domain
 * dates.ts): a screen's first render never builds an Intl formatter (the check costs ~90 ms on a
 * phone, most of it loading the zone data). Once the page is live and the browser idle, at most once
 * a week, the data is compared over the days the portal shows (a month back, three years ahead), a
 * slice of days per idle moment; a summer time found there makes every date follow the data at once
 * (DateTime re-renders) and, kept in localStorage, from the first render of the next visits. A check
 * that agrees again forgets it.
 */
export function startSaoPauloZoneCheck(now: number = Date.now()): void {
  const last = getZoneDataCheck();
  if (last?.summerTime) followSaoPauloZoneData();
  const today = Math.floor(now / DAY_MS);
  if (last && today >= last.checkedOn && today - last.checkedOn < CHECK_EVERY_DAYS) return;
  const check = () => checkInSlices(now, (summerTime) => setZoneDataCheck({ checkedOn: today, summerTime }));
  if (document.readyState === 'complete') check();
  else window.addEventListener('load', check, { once: true });
}
