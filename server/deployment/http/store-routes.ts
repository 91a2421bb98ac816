import { type Context, Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import type { KvStore } from '../store/deployment-store';
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

/**
 * The Store API (long-term memory shared across threads): put, get, delete, search items, list
 * namespaces. No embedding index is configured, so a search `query` is accepted and ignored.
 */
export function createStoreRoutes(kv: KvStore) {
  const app = new Hono();

  app.put('/items', async (c) => {
    const body = await parseJsonBody(c, putItemBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { namespace, key, value } = body.data;
    const problem = namespaceProblem(c, namespace);
    if (problem) return problem;
    await kv.put(namespace, key, value);
    return c.body(null, 204);
  });

  app.get('/items', async (c) => {
    const query = parseWith(getItemQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    // A missing item is `null` with 200, which the SDK's getItem returns as null.
    return c.json(await kv.get(query.data.namespace, query.data.key));
  });

  app.delete('/items', async (c) => {
    const body = await parseJsonBody(c, deleteItemBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const namespace = body.data.namespace ?? [];
    const problem = namespace.length > 0 ? namespaceProblem(c, namespace) : undefined;
    if (problem) return problem;
    await kv.delete(namespace, body.data.key);
    return c.body(null, 204);
  });

  app.post('/items/search', async (c) => {
    const body = await parseJsonBody(c, searchItemsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { namespace_prefix, filter, limit, offset } = body.data;
    const problem = namespace_prefix.length > 0 ? namespaceProblem(c, namespace_prefix) : undefined;
    if (problem) return problem;
    const items = await kv.search(namespace_prefix, {
      filter,
      limit: limit ?? 10,
      offset: offset ?? 0,
    });
    return c.json({ items });
  });

  app.post('/namespaces', async (c) => {
    const body = await parseJsonBody(c, listNamespacesBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { prefix, suffix, max_depth, limit, offset } = body.data;
    const problem =
      (prefix && namespaceProblem(c, prefix)) || (suffix && namespaceProblem(c, suffix));
    if (problem) return problem;
    const namespaces = await kv.namespaces({
      prefix,
      suffix,
      max_depth,
      limit: limit ?? 100,
      offset: offset ?? 0,
    });
    return c.json({ namespaces });
  });

  return app;
}
