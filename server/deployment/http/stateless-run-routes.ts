import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { jsonError } from '@server/http/json-error';
import { authDecisionOf, runOwnerOf } from '../auth/auth-door';
import { requireUuidParams } from '@server/http/uuid-params';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import { createRun, noAssistantFor } from '../use-cases/create-run';
import { statelessResult } from '../use-cases/join-result';
import { createRunFromRequest, streamRunEvents } from './run-responses';
import { joinStreamQuery, parseJsonBody, parseWith } from '../wire/request';
import { createRunBody } from '../wire/run-request';
import { serializeRun } from '../wire/serialize';
import { filtered, queryList, streamModeFilter } from '../wire/stream-mode-filter';
import { sseResponse } from '../wire/sse';

/** `POST /runs/batch`: stateless run bodies, at most this many in one request. */
const MAX_BATCH = 100;
const batchBody = z.array(createRunBody).min(1).max(MAX_BATCH);

/** Where a resumed stream starts: after `Last-Event-ID`, or at the first event. */
function resumeFrom(c: Context): number {
  const lastEventId = Number.parseInt(c.req.header('Last-Event-ID') ?? '', 10);
  return Number.isNaN(lastEventId) ? 0 : lastEventId + 1;
}

/**
 * Stateless runs, mounted at `/runs`: each runs on a new thread, deleted once the run has
 * finished unless `on_completion` is `keep`.
 */
export function createStatelessRunRoutes(deps: DeploymentDeps) {
  const { streams } = deps;
  const app = new Hono();

  app.post('/', async (c) => {
    const created = await createRunFromRequest(c, deps, null);
    return created instanceof Response ? created : c.json(serializeRun(created.run));
  });

  // runs.createBatch: every body is checked (shape, assistant) before any run is created.
  app.post('/batch', async (c) => {
    const body = await parseJsonBody(c, batchBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const resolved = await Promise.all(
      body.data.map((run) => deps.assistants.resolve(run.assistant_id)),
    );
    const unknown = resolved.findIndex((assistant) => !assistant);
    if (unknown >= 0) {
      return jsonError(
        c,
        404,
        `${unknown}: ${noAssistantFor(body.data[unknown]?.assistant_id ?? '')}`,
      );
    }
    const created = [];
    for (const [index, run] of body.data.entries()) {
      const owner = runOwnerOf(c);
      const result = await createRun(deps, run, null, c.req.url, c.req.raw.headers, owner);
      if ('refused' in result) return jsonError(c, result.refused, `${index}: ${result.detail}`);
      created.push(serializeRun(result.run));
    }
    return c.json(created);
  });

  // The final values come from the run's stream log: the thread may already be deleted.
  app.post('/wait', async (c) => {
    const created = await createRunFromRequest(c, deps, null);
    if (created instanceof Response) return created;
    const { run_id } = created.run;
    const result = await statelessResult(deps, run_id);
    if (result === undefined) return jsonError(c, 404, `Run ${run_id} was deleted (rolled back)`);
    return c.json(result);
  });

  app.post('/stream', async (c) => {
    const created = await createRunFromRequest(c, deps, null);
    if (created instanceof Response) return created;
    const cancelOnDisconnect = created.body.on_disconnect === 'cancel';
    return streamRunEvents(c, deps, created.run, { from: 0, cancelOnDisconnect });
  });

  /**
   * `runs.joinStream(null, runId)`: a stateless run's events, read from its stream log (its
   * thread may be gone already), kept a minute after the run ends as for thread runs.
   */
  app.get('/:runId/stream', requireUuidParams('runId'), async (c) => {
    const query = parseWith(joinStreamQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    const runId = c.req.param('runId');
    if (['1', 'true'].includes(query.data.cancel_on_disconnect)) {
      return jsonError(
        c,
        422,
        'cancel_on_disconnect: not supported when joining a stateless run; join it on its thread (runs.joinStream(threadId, runId)) or create it with on_disconnect "cancel"',
      );
    }
    // The stream log does not know whose run it is: a caller that authorization keeps to its
    // own records joins its runs on their threads instead, and never learns that another's exists.
    if (authDecisionOf(c).filters || !(await streams.has(runId))) {
      return jsonError(c, 404, `Run ${runId} not found (or it ended more than a minute ago)`);
    }
    c.header('Content-Location', `/runs/${runId}`);
    const keep = streamModeFilter(queryList(c.req.queries('stream_mode')));
    const from = resumeFrom(c);
    return sseResponse(c, (signal) => filtered(streams.read(runId, from, signal), keep));
  });

  return app;
}
