import type { KvStore } from './deployment-store';
import type { StoreItem } from './records';

/**
 * The Store API's items as one tenant sees them: every namespace it names is kept under `scope`
 * (labels it never sees), so its reads, searches and listings are prefix queries of the store,
 * and no namespace it can name reaches another tenant's items.
 */
export function scopedKvStore(kv: KvStore, scope: readonly string[]): KvStore {
  if (scope.length === 0) return kv;
  const inner = (namespace: readonly string[]) => [...scope, ...namespace];
  const outer = (item: StoreItem): StoreItem => ({
    ...item,
    namespace: item.namespace.slice(scope.length),
  });
  return {
    put: (namespace, key, value, ttlMinutes) => kv.put(inner(namespace), key, value, ttlMinutes),
    async get(namespace, key, refreshTtl) {
      const item = await kv.get(inner(namespace), key, refreshTtl);
      return item && outer(item);
    },
    delete: (namespace, key) => kv.delete(inner(namespace), key),
    async search(prefix, search) {
      return (await kv.search(inner(prefix), search)).map(outer);
    },
    async namespaces(query) {
      const { max_depth } = query;
      const found = await kv.namespaces({
        ...query,
        prefix: inner(query.prefix ?? []),
        max_depth: max_depth == null ? max_depth : max_depth + scope.length,
      });
      return found.map((namespace) => namespace.slice(scope.length));
    },
    // Expiry is the whole store's: the sweep is never one tenant's.
    sweepExpired: (now) => kv.sweepExpired(now),
  };
}

/**
 * The hidden first namespace label of a workspace's store items (`langsmith` mode). Labels
 * cannot hold periods, so a workspace id that does cannot break out of its label.
 */
export const workspaceLabel = (workspace: string) => `workspace:${workspace.replaceAll('.', '_')}`;
