import {
  BaseStore,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
} from '@langchain/langgraph-checkpoint';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { KvStore } from './deployment-store';

/** How a graph's items expire: langgraph.json's `store.ttl`, read once the file is loaded. */
export interface GraphStoreTtl {
  defaultTtl?: number;
  refreshOnRead: boolean;
}
import type { StoreItem } from './records';
import { scopedKvStore, workspaceLabel } from './scoped-kv-store';

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
 * The workspace of the run being executed (its `langsmith` key's), set by the executor around
 * the run: LangGraph batches a run's store operations outside its nodes' own context, but within
 * the run's.
 */
export const runWorkspaceScope = new AsyncLocalStorage<string | undefined>();

/**
 * The store a graph's nodes get (`config.store`, `runtime.store`): the same items as the Store
 * API, so what a node writes, a client reads, and the other way round. While `byWorkspace()`
 * (the deployment checks `langsmith` keys), a run's nodes see its key's workspace's items, as
 * that key does through the Store API.
 */
export class GraphStore extends BaseStore {
  constructor(
    private readonly shared: KvStore,
    private readonly ttl: () => GraphStoreTtl = () => ({ refreshOnRead: true }),
    private readonly byWorkspace: () => boolean = () => false,
  ) {
    super();
  }

  private get kv(): KvStore {
    const workspace = this.byWorkspace() ? runWorkspaceScope.getStore() : undefined;
    return workspace ? scopedKvStore(this.shared, [workspaceLabel(workspace)]) : this.shared;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    // One after another, in order: a put followed by a get in one batch reads the put.
    for (const op of operations) results.push(await this.apply(op));
    // One result per operation, in order: the shape OperationResults describes.
    return results as OperationResults<Op>;
  }

  private async apply(op: Operation): Promise<unknown> {
    if ('namespacePrefix' in op) {
      const search = {
        filter: op.filter ?? null,
        limit: op.limit ?? 10,
        offset: op.offset ?? 0,
        refreshTtl: this.ttl().refreshOnRead,
      };
      return (await this.kv.search(op.namespacePrefix, search)).map(toItem);
    }
    if ('value' in op) {
      if (op.value === null) await this.kv.delete(op.namespace, op.key);
      else await this.kv.put(op.namespace, op.key, op.value, this.ttl().defaultTtl);
      return undefined;
    }
    if ('key' in op) {
      const item = await this.kv.get(op.namespace, op.key, this.ttl().refreshOnRead);
      return item ? toItem(item) : null;
    }
    return this.kv.namespaces(namespaceQuery(op));
  }
}
