import { checkSaoPauloZoneDataAround } from '@portal/domain';

/** The part of a dedicated worker's scope this file uses (the app's TypeScript lib is the page's DOM). */
interface ZoneCheckScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<number>) => void): void;
  postMessage(summerTime: boolean): void;
}

const scope = globalThis as unknown as ZoneCheckScope;

/** lib/zoneData.ts: the whole check around the instant it is sent; answers whether a summer time was found. */
scope.addEventListener('message', (event) => {
  scope.postMessage(checkSaoPauloZoneDataAround(event.data) !== null);
});
