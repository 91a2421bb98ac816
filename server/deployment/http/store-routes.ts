import { type Context, Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import { authorizeInRoute } from '../auth/auth-door';
import type { AuthDecision } from '../auth/auth-types';
import { matchesFilters } from '../store/metadata-filter';
import type { KvStore } from '../store/deployment-store';
import type { GraphStoreTtl } from '../store/graph-store';
import { requiredLabels } from '../store/namespaces';
import { scopedKvStore } from '../store/scoped-kv-store';
import { parseJsonBody, parseWith } from '../wire/request';
import {
  deleteItemBody,
  getItemQuery,
  listNamespacesBody,
  putItemBody,
  searchItemsBody,
} from '../wire/store-requests';

/** The official server's checks of a namespace, with its statuses and wording. */
function namespaceProblem(c: Context, namespace: string[]): Response | undefined {
  if (namespace.length === 0) return jsonError(c, 400, 'Namespace is required');
  if (namespace.some((label) => label === '' || label.includes('.'))) {
    return jsonError(
      c,
      422,
      `Namespace labels cannot be empty or contain periods. Received: ${namespace.join('.')}`,
    );
  }
  return undefined;
}

/** An item as authorization filters see it: its value's fields, its namespace and key. */
const itemView = (namespace: string[], key?: string, value?: Record<string, unknown> | null) => ({
  ...value,
  namespace,
  ...(key !== undefined && { key }),
});

/**
 * How many items or namespaces an authorized search reads before filtering them: the store's
 * queries already keep to the namespaces holding the filters' labels; the rest of a filter (on
 * values, or alternatives) is checked here.
 */
const AUTHORIZED_SCAN_LIMIT = 10_000;

const namespaceOf = (value: Readonly<Record<string, unknown>> | undefined, fallback: string[]) => {
  const namespace = value?.namespace;
  return Array.isArray(namespace) ? namespace.map(String) : fallback;
};

/**
 * The Store API (long-term memory shared across threads): put, get, delete, search items, list
 * namespaces. No embedding index is configured, so a search `query` is accepted and ignored.
 * Each route authorizes its own namespace and key (`store:put`, ...): a handler may refuse or
 * rewrite the namespace, and its filters hide other callers' items; a `langsmith` key reaches
 * only its workspace's part of the store.
 */
export function createStoreRoutes(shared: KvStore, ttl: () => GraphStoreTtl) {
  const storeFor = (decision: AuthDecision) => scopedKvStore(shared, decision.namespaceScope ?? []);
  const app = new Hono();

  app.put('/items', async (c) => {
    const body = await parseJsonBody(c, putItemBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { key, value } = body.data;
    const problem = namespaceProblem(c, body.data.namespace);
    if (problem) return problem;
    const decision = await authorizeInRoute(c, 'store', 'put', body.data);
    if (decision instanceof Response) return decision;
    const kv = storeFor(decision);
    const namespace = namespaceOf(decision.value, body.data.namespace);
    if (decision.filters) {
      const existing = await kv.get(namespace, key);
      if (existing && !matchesFilters(itemView(namespace, key, existing.value), decision.filters)) {
        return jsonError(c, 404, 'Item not found');
      }
      if (!matchesFilters(itemView(namespace, key, value), decision.filters)) {
        return jsonError(c, 403, 'Not authorized');
      }
    }
    // Left out, the deployment's default; `null`, never expires.
    const minutes = body.data.ttl === undefined ? ttl().defaultTtl : body.data.ttl;
    await kv.put(namespace, key, value, minutes);
    return c.body(null, 204);
  });

  app.get('/items', async (c) => {
    const query = parseWith(getItemQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    const decision = await authorizeInRoute(c, 'store', 'get', query.data);
    if (decision instanceof Response) return decision;
    const kv = storeFor(decision);
    const item = await kv.get(
      namespaceOf(decision.value, query.data.namespace),
      query.data.key,
      query.data.refresh_ttl ?? ttl().refreshOnRead,
    );
    const visible =
      item && matchesFilters(itemView(item.namespace, item.key, item.value), decision.filters);
    // A missing item is `null` with 200, which the SDK's getItem returns as null; so is another
    // caller's.
    return c.json(visible ? item : null);
  });

  app.delete('/items', async (c) => {
    const body = await parseJsonBody(c, deleteItemBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const asked = body.data.namespace ?? [];
    const problem = asked.length > 0 ? namespaceProblem(c, asked) : undefined;
    if (problem) return problem;
    const decision = await authorizeInRoute(c, 'store', 'delete', {
      ...body.data,
      namespace: asked,
    });
    if (decision instanceof Response) return decision;
    const kv = storeFor(decision);
    const namespace = namespaceOf(decision.value, asked);
    if (decision.filters) {
      const existing = await kv.get(namespace, body.data.key);
      const view = existing && itemView(namespace, body.data.key, existing.value);
      if (!view || !matchesFilters(view, decision.filters)) {
        return jsonError(c, 404, 'Item not found');
      }
    }
    await kv.delete(namespace, body.data.key);
    return c.body(null, 204);
  });

  app.post('/items/search', async (c) => {
    const body = await parseJsonBody(c, searchItemsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { namespace_prefix, filter, limit, offset } = body.data;
    const refreshTtl = body.data.refresh_ttl ?? ttl().refreshOnRead;
    const problem = namespace_prefix.length > 0 ? namespaceProblem(c, namespace_prefix) : undefined;
    if (problem) return problem;
    const decision = await authorizeInRoute(c, 'store', 'search', {
      namespace: namespace_prefix,
      filter,
      limit,
      offset,
    });
    if (decision instanceof Response) return decision;
    const kv = storeFor(decision);
    const prefix = namespaceOf(decision.value, namespace_prefix);
    const page = { limit: limit ?? 10, offset: offset ?? 0 };
    const { filters } = decision;
    if (!filters) {
      return c.json({ items: await kv.search(prefix, { filter, ...page, refreshTtl }) });
    }
    const scanned = await kv.search(prefix, {
      filter,
      labels: requiredLabels(filters),
      limit: AUTHORIZED_SCAN_LIMIT,
      offset: 0,
    });
    const items = scanned.filter((item) =>
      matchesFilters(itemView(item.namespace, item.key, item.value), filters),
    );
    return c.json({ items: items.slice(page.offset, page.offset + page.limit) });
  });

  app.post('/namespaces', async (c) => {
    const body = await parseJsonBody(c, listNamespacesBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { prefix, suffix, max_depth, limit, offset } = body.data;
    const problem =
      (prefix && namespaceProblem(c, prefix)) || (suffix && namespaceProblem(c, suffix));
    if (problem) return problem;
    const decision = await authorizeInRoute(c, 'store', 'list_namespaces', {
      namespace: prefix,
      suffix,
      max_depth,
      limit,
      offset,
    });
    if (decision instanceof Response) return decision;
    const kv = storeFor(decision);
    const query = { prefix: prefix && namespaceOf(decision.value, prefix), suffix, max_depth };
    const page = { limit: limit ?? 100, offset: offset ?? 0 };
    const { filters } = decision;
    if (!filters) return c.json({ namespaces: await kv.namespaces({ ...query, ...page }) });
    const scanned = await kv.namespaces({
      ...query,
      labels: requiredLabels(filters),
      limit: AUTHORIZED_SCAN_LIMIT,
      offset: 0,
    });
    const namespaces = scanned.filter((namespace) => matchesFilters({ namespace }, filters));
    return c.json({ namespaces: namespaces.slice(page.offset, page.offset + page.limit) });
  });

  return app;
}
