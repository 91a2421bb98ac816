import { type Context, Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import { joinResult } from '../use-cases/join-result';
import { createRunFromRequest, streamRunEvents } from './run-responses';
import { cancelRunQuery, joinStreamQuery, listRunsQuery, parseWith } from '../wire/request';
import { serializeRun } from '../wire/serialize';
import { queryList } from '../wire/stream-mode-filter';

/** `["a","b"]` (JSON, as the SDK sends a list in a query) or `a,b`. */
function fieldList(value: string): string[] {
  if (!value.startsWith('[')) return value.split(',');
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

/** Runs of a thread, mounted at `/threads/:threadId/runs`. */
export function createRunRoutes(deps: DeploymentDeps) {
  const { threads, runs, manager } = deps;
  const app = new Hono();
  const threadId = (c: Context) => c.req.param('threadId') ?? '';
  const findRun = (c: Context) => runs.get(threadId(c), c.req.param('runId') ?? '');
  const runNotFound = (c: Context) =>
    jsonError(c, 404, `Run ${c.req.param('runId')} not found on thread ${threadId(c)}`);

  app.post('/', async (c) => {
    const created = await createRunFromRequest(c, deps, threadId(c));
    return created instanceof Response ? created : c.json(serializeRun(created.run));
  });

  app.post('/wait', async (c) => {
    const created = await createRunFromRequest(c, deps, threadId(c));
    if (created instanceof Response) return created;
    const { run } = created;
    const finished = await manager.waitUntilFinished(run.thread_id, run.run_id);
    if (!finished) return jsonError(c, 404, `Run ${run.run_id} was deleted (rolled back)`);
    return c.json(await joinResult(deps, finished));
  });

  app.post('/stream', async (c) => {
    const created = await createRunFromRequest(c, deps, threadId(c));
    if (created instanceof Response) return created;
    const cancelOnDisconnect = created.body.on_disconnect === 'cancel';
    return streamRunEvents(c, deps, created.run, { from: 0, cancelOnDisconnect });
  });

  app.get('/', async (c) => {
    const query = parseWith(listRunsQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    if (!(await threads.get(threadId(c))))
      return jsonError(c, 404, `Thread ${threadId(c)} not found`);
    const listed = (await runs.list(threadId(c), query.data)).map(serializeRun);
    // `select` keeps only the named fields; the SDK sends the list as JSON, others repeat it.
    const select = c.req.queries('select')?.flatMap(fieldList);
    if (!select) return c.json(listed);
    return c.json(listed.map((run) => Object.fromEntries(select.map((key) => [key, run[key]]))));
  });

  app.get('/:runId', async (c) => {
    const run = await findRun(c);
    return run ? c.json(serializeRun(run)) : runNotFound(c);
  });

  app.get('/:runId/join', async (c) => {
    const runId = c.req.param('runId') ?? '';
    const finished = await manager.join(threadId(c), runId);
    if (finished === 'missing') return runNotFound(c);
    if (!finished) return jsonError(c, 404, `Run ${runId} was deleted (rolled back)`);
    return c.json(await joinResult(deps, finished));
  });

  // joinStream: the run's events from the start, or after `Last-Event-ID` (SDK reconnects).
  app.get('/:runId/stream', async (c) => {
    const query = parseWith(joinStreamQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    const run = await findRun(c);
    if (!run) return runNotFound(c);
    const lastEventId = Number.parseInt(c.req.header('Last-Event-ID') ?? '', 10);
    const from = Number.isNaN(lastEventId) ? 0 : lastEventId + 1;
    const cancelOnDisconnect = ['1', 'true'].includes(query.data.cancel_on_disconnect);
    const modes = queryList(c.req.queries('stream_mode'));
    return streamRunEvents(c, deps, run, { from, cancelOnDisconnect, ...(modes && { modes }) });
  });

  app.post('/:runId/cancel', async (c) => {
    const query = parseWith(cancelRunQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    const run = await findRun(c);
    if (!run) return runNotFound(c);
    const refused = await manager.cancel(run, query.data.action);
    if (refused) return jsonError(c, 409, refused.conflict);
    const waited = query.data.wait === '1' || query.data.wait === 'true';
    return c.body(null, waited ? 204 : 202);
  });

  app.delete('/:runId', async (c) => {
    const run = await findRun(c);
    if (!run) return runNotFound(c);
    const refused = await manager.delete(run);
    return refused ? jsonError(c, 409, refused.conflict) : c.body(null, 204);
  });

  return app;
}
