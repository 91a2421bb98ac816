import { type Context, Hono } from 'hono';
import { DEFAULT_MULTITASK_STRATEGY } from '@contracts/deployment';
import { jsonError } from '../http/json-error';
import type { RunRecord } from './store/run-store';
import type { DeploymentDeps } from './deployment-deps';
import {
  cancelRunQuery,
  createRunBody,
  listRunsQuery,
  parseJsonBody,
  parseWith,
} from './wire/request';
import { serializeRun, serializeValues } from './wire/serialize';

/** Runs of a thread, mounted at `/threads/:threadId/runs`. */
export function createRunRoutes(deps: DeploymentDeps) {
  const { threads, runs, manager, assistants, graph } = deps;
  const app = new Hono();

  const threadId = (c: Context) => c.req.param('threadId') ?? '';
  const findRun = (c: Context) => runs.get(threadId(c), c.req.param('runId') ?? '');
  const runNotFound = (c: Context) =>
    jsonError(c, 404, `Run ${c.req.param('runId')} not found on thread ${threadId(c)}`);

  /** What join returns: the thread's state values once the run is done (LangGraph's shape). */
  async function finalValues(run: RunRecord) {
    const snapshot = await graph.getState({ configurable: { thread_id: run.thread_id } });
    const values = serializeValues(snapshot.values);
    if (run.status !== 'error') return values;
    return { ...values, __error__: { error: 'RunError', message: run.error ?? 'Run failed' } };
  }

  /** Validates and creates a run; a `Response` when refused, else the created run. */
  async function createRun(c: Context): Promise<Response | RunRecord> {
    const body = await parseJsonBody(c, createRunBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { assistant_id, input, multitask_strategy, metadata, if_not_exists } = body.data;
    const assistant = assistants.resolve(assistant_id);
    if (!assistant) return jsonError(c, 404, `Assistant ${assistant_id} not found`);
    if (!threads.get(threadId(c))) {
      if (if_not_exists !== 'create') return jsonError(c, 404, `Thread ${threadId(c)} not found`);
      threads.create({ graph_id: assistant.graph_id }, threadId(c)); // no-op if another won
    }
    const result = await manager.create({
      threadId: threadId(c),
      assistantId: assistant.assistant_id,
      input,
      metadata: metadata ?? {},
      strategy: multitask_strategy ?? DEFAULT_MULTITASK_STRATEGY,
    });
    if ('conflict' in result) return jsonError(c, 409, result.conflict);
    c.header('Content-Location', `/threads/${result.thread_id}/runs/${result.run_id}`);
    return result;
  }

  app.post('/', async (c) => {
    const created = await createRun(c);
    return created instanceof Response ? created : c.json(serializeRun(created));
  });

  app.post('/wait', async (c) => {
    const created = await createRun(c);
    if (created instanceof Response) return created;
    const finished = await manager.waitUntilFinished(created.thread_id, created.run_id);
    if (!finished) return jsonError(c, 404, `Run ${created.run_id} was deleted (rolled back)`);
    return c.json(await finalValues(finished));
  });

  app.get('/', (c) => {
    const query = parseWith(listRunsQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    if (!threads.get(threadId(c))) return jsonError(c, 404, `Thread ${threadId(c)} not found`);
    return c.json(runs.list(threadId(c), query.data).map(serializeRun));
  });

  app.get('/:runId', (c) => {
    const run = findRun(c);
    return run ? c.json(serializeRun(run)) : runNotFound(c);
  });

  app.get('/:runId/join', async (c) => {
    const run = findRun(c);
    if (!run) return runNotFound(c);
    const finished = await manager.waitUntilFinished(run.thread_id, run.run_id);
    if (!finished) return jsonError(c, 404, `Run ${run.run_id} was deleted (rolled back)`);
    return c.json(await finalValues(finished));
  });

  app.post('/:runId/cancel', async (c) => {
    const query = parseWith(cancelRunQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    const run = findRun(c);
    if (!run) return runNotFound(c);
    const refused = await manager.cancel(run, query.data.action);
    if (refused) return jsonError(c, 409, refused.conflict);
    const waited = query.data.wait === '1' || query.data.wait === 'true';
    return c.body(null, waited ? 204 : 202);
  });

  app.delete('/:runId', async (c) => {
    const run = findRun(c);
    if (!run) return runNotFound(c);
    const refused = await manager.delete(run);
    return refused ? jsonError(c, 409, refused.conflict) : c.body(null, 204);
  });

  return app;
}
