import { type Context, Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import { authDecisionOf, stampedMetadata } from '../auth/auth-door';
import { matchesFilters } from '../store/metadata-filter';
import type { Assistant } from '../use-cases/assistant-registry';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import {
  countAssistantsBody,
  createAssistantBody,
  patchAssistantBody,
  searchAssistantsBody,
  setLatestBody,
  versionsBody,
} from '../wire/assistant-requests';
import { jsonContains } from '../wire/json-contains';
import { parseJsonBody } from '../wire/request';
import { createAssistantGraphRoutes } from './assistant-graph-routes';
import { deleteThreadsOfAssistant } from '../use-cases/thread-deletion';

type SortKey = 'assistant_id' | 'graph_id' | 'created_at' | 'updated_at' | 'name';

const compareBy = (key: SortKey, order: 'asc' | 'desc') => (a: Assistant, b: Assistant) =>
  (order === 'asc' ? 1 : -1) * String(a[key]).localeCompare(String(b[key]));

/**
 * The assistants the caller's authorization lets it see. Assistants are few per deployment (the
 * registry searches them in memory), so the filter applies to the search's result.
 */
const visibleOnly = (c: Context, found: Assistant[]) => {
  const { filters } = authDecisionOf(c);
  return filters ? found.filter((assistant) => matchesFilters(assistant.metadata, filters)) : found;
};

/** Assistants: create, get, update (a new version), delete, search, count, versions. */
export function createAssistantRoutes(deps: DeploymentDeps) {
  const { assistants } = deps;
  const app = new Hono();

  const idParam = (c: Context) => assistants.idOf(c.req.param('assistantId') ?? '');
  const notFound = (c: Context) => jsonError(c, 404, 'Assistant not found');

  app.post('/', async (c) => {
    const body = await parseJsonBody(c, createAssistantBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { if_exists, ...input } = body.data;
    if (!assistants.isServed(input.graph_id)) {
      return jsonError(c, 404, `Graph "${input.graph_id}" not found`);
    }
    const created = await assistants.create({
      ...input,
      metadata: stampedMetadata(c, input.metadata),
    });
    if (created) return c.json(created);
    const existing = await assistants.get(input.assistant_id ?? '');
    // Another caller's assistant of that id is a conflict, never shown.
    const visible = existing && matchesFilters(existing.metadata, authDecisionOf(c).filters);
    if (!existing || !visible || if_exists !== 'do_nothing') {
      return jsonError(c, 409, 'Assistant already exists');
    }
    return c.json(existing);
  });

  app.post('/search', async (c) => {
    const body = await parseJsonBody(c, searchAssistantsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { limit, offset, sort_by, sort_order, select, ...query } = body.data;
    const found = visibleOnly(c, await assistants.search(query));
    // Stored newest first; any other order is a stable sort of that.
    if (sort_by) found.sort(compareBy(sort_by, sort_order ?? 'desc'));
    else if (sort_order === 'asc') found.reverse();
    const from = offset ?? 0;
    const page = found.slice(from, from + (limit ?? 10));
    if (from + page.length < found.length) {
      c.header('X-Pagination-Next', String(from + page.length));
    }
    c.header('X-Pagination-Total', String(found.length));
    if (!select) return c.json(page);
    return c.json(
      page.map((a) => Object.fromEntries(Object.entries(a).filter(([k]) => select.includes(k)))),
    );
  });

  app.post('/count', async (c) => {
    const body = await parseJsonBody(c, countAssistantsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    return c.json(visibleOnly(c, await assistants.search(body.data)).length);
  });

  app.get('/:assistantId', async (c) => {
    const assistant = await assistants.get(idParam(c));
    return assistant ? c.json(assistant) : notFound(c);
  });

  app.patch('/:assistantId', async (c) => {
    const body = await parseJsonBody(c, patchAssistantBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const graphId = body.data.graph_id;
    if (graphId && !assistants.isServed(graphId)) {
      return jsonError(c, 404, `Graph "${graphId}" not found`);
    }
    const patch = body.data.metadata
      ? { ...body.data, metadata: stampedMetadata(c, body.data.metadata) }
      : body.data;
    const updated = await assistants.update(idParam(c), patch);
    return updated ? c.json(updated) : notFound(c);
  });

  app.delete('/:assistantId', async (c) => {
    const assistantId = idParam(c);
    if (!(await assistants.delete(assistantId))) return notFound(c);
    if (c.req.query('delete_threads') === 'true') {
      await deleteThreadsOfAssistant(deps, assistantId);
    }
    return c.json([assistantId]);
  });

  app.post('/:assistantId/versions', async (c) => {
    const body = await parseJsonBody(c, versionsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { limit, offset, metadata } = body.data;
    const assistantId = idParam(c);
    const all = await assistants.versions(assistantId);
    if (all.length === 0) return jsonError(c, 404, `Assistant "${assistantId}" not found.`);
    const matching = metadata ? all.filter((v) => jsonContains(v.metadata, metadata)) : all;
    const from = offset ?? 0;
    return c.json(matching.slice(from, from + (limit ?? 10)));
  });

  app.post('/:assistantId/latest', async (c) => {
    const body = await parseJsonBody(c, setLatestBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const result = await assistants.setLatest(idParam(c), body.data.version);
    if (result === 'no-version') return jsonError(c, 404, 'Assistant version not found');
    return result ? c.json(result) : notFound(c);
  });

  app.route('/:assistantId', createAssistantGraphRoutes(deps));
  return app;
}
