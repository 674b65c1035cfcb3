import { AsyncLocalStorage } from 'node:async_hooks';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/** Whether the request under way has written: its later reads all go to the primary (decision 81). */
const requestWrites = new AsyncLocalStorage<{ wrote: boolean }>();

/** Runs `next` (a request's handling) with its own write mark. */
export function withRequestWrites(next: () => void): void {
  requestWrites.run({ wrote: false }, next);
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

function writes(node: RootOperationNode): boolean {
  if (WRITES.has(node.kind)) return true;
  if (node.kind !== 'RawNode') return false;
  const text = node.sqlFragments.join(' ').trimStart().toLowerCase();
  return /^(insert|update|delete|with|merge)/.test(text);
}

/** On the primary: marks the request under way as having written when a query writes (or may: a raw WITH). */
export const writeMarker: KyselyPlugin = {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const store = requestWrites.getStore();
    if (store && !store.wrote && writes(node)) store.wrote = true;
    return node;
  },
  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  },
};

/** Whether the request under way (if any) has written. */
export function requestWrote(): boolean {
  return requestWrites.getStore()?.wrote === true;
}
