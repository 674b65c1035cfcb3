import { checkSaoPauloZoneDataAround, followSaoPauloZoneData } from '@portal/domain';
import { getZoneDataCheck, setZoneDataCheck } from './storage';

const DAY_MS = 86_400_000;
/** The zone's data changes with the browser's updates; a summer time is decreed months ahead. */
const CHECK_EVERY_DAYS = 7;
/** How long after the page's `load` the check may wait for an idle moment. */
const CHECK_WITHIN_MS = 10_000;

/**
 * São Paulo's time on screen is UTC−3 by arithmetic while this browser's zone data agrees (domain
 * dates.ts): a screen's first render never builds an Intl formatter (the check costs ~90 ms on a
 * phone, most of it loading the zone data). Once the page is live and the browser idle, at most once
 * a week, the data is compared over the days the portal shows (a month back, three years ahead); a
 * summer time found there makes every date follow the data at once (DateTime re-renders) and, kept
 * in localStorage, from the first render of the next visits. A check that agrees again forgets it.
 */
export function startSaoPauloZoneCheck(now: number = Date.now()): void {
  const last = getZoneDataCheck();
  if (last?.summerTime) followSaoPauloZoneData();
  const today = Math.floor(now / DAY_MS);
  if (last && today >= last.checkedOn && today - last.checkedOn < CHECK_EVERY_DAYS) return;
  const check = () => setZoneDataCheck({ checkedOn: today, summerTime: checkSaoPauloZoneDataAround() !== null });
  const whenIdle = () => {
    // Safari has no requestIdleCallback.
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(check, { timeout: CHECK_WITHIN_MS });
    else setTimeout(check, 1_000);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
