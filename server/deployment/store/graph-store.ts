import {
  BaseStore,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
} from '@langchain/langgraph-checkpoint';
import type { KvStore, StoreItem } from './kv-store';

const toItem = (item: StoreItem): Item => ({
  namespace: item.namespace,
  key: item.key,
  value: item.value,
  createdAt: new Date(item.created_at),
  updatedAt: new Date(item.updated_at),
});

/** `ListNamespacesOperation` conditions as the Store API's `prefix` / `suffix` (no wildcards). */
function namespaceQuery(op: ListNamespacesOperation) {
  const path = (type: 'prefix' | 'suffix') =>
    op.matchConditions?.find((condition) => condition.matchType === type)?.path ?? null;
  return {
    prefix: path('prefix'),
    suffix: path('suffix'),
    max_depth: op.maxDepth ?? null,
    limit: op.limit,
    offset: op.offset,
  };
}

/**
 * The store a graph's nodes get (`config.store`, `runtime.store`): the same items as the Store
 * API, so what a node writes, a client reads, and the other way round.
 */
export class GraphStore extends BaseStore {
  constructor(private readonly kv: KvStore) {
    super();
  }

  batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results = operations.map((op) => {
      if ('namespacePrefix' in op) {
        const search = { filter: op.filter ?? null, limit: op.limit ?? 10, offset: op.offset ?? 0 };
        return this.kv.search(op.namespacePrefix, search).map(toItem);
      }
      if ('value' in op) {
        if (op.value === null) this.kv.delete(op.namespace, op.key);
        else this.kv.put(op.namespace, op.key, op.value);
        return undefined;
      }
      if ('key' in op) {
        const item = this.kv.get(op.namespace, op.key);
        return item ? toItem(item) : null;
      }
      return this.kv.namespaces(namespaceQuery(op));
    });
    // One result per operation, in order: the shape OperationResults describes.
    return Promise.resolve(results as OperationResults<Op>);
  }
}
