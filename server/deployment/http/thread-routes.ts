import { type Context, Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import { authDecisionOf, stampedMetadata } from '../auth/auth-door';
import { matchesFilters } from '../store/metadata-filter';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import { pruneThreads } from '../use-cases/prune-threads';
import { deleteThread } from '../use-cases/thread-deletion';
import { createThreadStateRoutes } from './thread-state-routes';
import { joinThreadStream } from './thread-stream-route';
import { writeSupersteps } from '../use-cases/thread-supersteps';
import { createThreadView, selectFields } from '../use-cases/thread-view';
import { parseJsonBody } from '../wire/request';
import {
  countThreadsBody,
  createThreadBody,
  patchThreadBody,
  pruneThreadsBody,
  searchThreadsBody,
} from '../wire/thread-requests';

/** Threads: create, get, update, delete, copy, search and count; state and history below. */
export function createThreadRoutes(deps: DeploymentDeps) {
  const { threads } = deps;
  const view = createThreadView(deps);
  const app = new Hono();

  const threadId = (c: Context) => c.req.param('threadId') ?? '';
  const notFound = (c: Context) => jsonError(c, 404, `Thread with ID ${threadId(c)} not found`);

  app.post('/', async (c) => {
    const body = await parseJsonBody(c, createThreadBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { thread_id, metadata, if_exists, supersteps, ttl } = body.data;
    const created = await threads.create(stampedMetadata(c, metadata), thread_id ?? undefined);
    const threadTtl = ttl ?? deps.defaultTtl;
    if (created && threadTtl) await deps.ttls.set(created.thread_id, threadTtl);
    if (!created) {
      // Only a caller-chosen thread_id can collide with an existing thread.
      const existing = await threads.get(thread_id ?? '');
      // Another caller's thread of that id is a conflict, never shown.
      const { filters } = authDecisionOf(c);
      const visible = existing && matchesFilters(existing.metadata, filters) ? existing : undefined;
      if (!visible || if_exists !== 'do_nothing') {
        return jsonError(c, 409, 'Thread already exists');
      }
      return c.json(await view.toWire(visible));
    }
    if (!supersteps?.length) return c.json(view.fresh(created));
    const refused = await writeSupersteps(deps, created, supersteps);
    if (refused) return jsonError(c, 400, refused);
    return c.json(await view.toWire(created));
  });

  app.post('/search', async (c) => {
    const body = await parseJsonBody(c, searchThreadsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const query = body.data;
    const sortBy = query.sort_by ?? 'created_at';
    const order = query.sort_order ?? 'desc';
    const limit = query.limit ?? 10;
    const offset = query.offset ?? 0;
    const { filters } = authDecisionOf(c);
    const all = await threads.all(sortBy === 'status' ? 'created_at' : sortBy, order, filters);
    const page = { limit, offset, byStatus: sortBy === 'status' ? order : undefined };
    const { total, threads: found } = await view.search(all, query, page);
    // The platform's pagination headers: a next offset while a full page came back.
    if (found.length === limit && offset + limit < total) {
      c.header('X-Pagination-Next', String(offset + limit));
    }
    c.header('X-Pagination-Total', String(total));
    return c.json(found.map((thread) => selectFields(thread, query.select)));
  });

  app.post('/count', async (c) => {
    const body = await parseJsonBody(c, countThreadsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const all = await threads.all('created_at', 'desc', authDecisionOf(c).filters);
    const { total } = await view.search(all, body.data, { limit: 0, offset: 0 });
    return c.json(total);
  });

  app.get('/:threadId', async (c) => {
    const thread = await threads.get(threadId(c));
    return thread ? c.json(await view.toWire(thread)) : notFound(c);
  });

  app.patch('/:threadId', async (c) => {
    const body = await parseJsonBody(c, patchThreadBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const metadata = stampedMetadata(c, body.data.metadata);
    const patched = await threads.patchMetadata(threadId(c), metadata);
    if (!patched) return jsonError(c, 404, 'Thread not found');
    if (body.data.ttl) await deps.ttls.set(patched.thread_id, body.data.ttl);
    return c.json(await view.toWire(patched));
  });

  app.post('/prune', async (c) => {
    const body = await parseJsonBody(c, pruneThreadsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { thread_ids, strategy } = body.data;
    const filters = authDecisionOf(c).filters;
    return c.json({ pruned_count: await pruneThreads(deps, thread_ids, strategy, filters) });
  });

  app.delete('/:threadId', async (c) => {
    const deleted = await deleteThread(deps, threadId(c));
    return deleted ? c.body(null, 204) : notFound(c);
  });

  app.post('/:threadId/copy', async (c) => {
    const source = await threads.get(threadId(c));
    // 409, not 404: the wording and status of the official server for an unknown source thread.
    if (!source) return jsonError(c, 409, 'Thread not found');
    return c.json(await view.toWire(await threads.copy(source)));
  });

  app.route('/:threadId', createThreadStateRoutes(deps));
  app.get('/:threadId/stream', (c) => joinThreadStream(c, deps));
  return app;
}
