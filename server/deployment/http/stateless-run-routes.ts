import { Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import type { DeploymentDeps } from './deployment-deps';
import { createRunFromRequest, streamRunEvents } from './run-creation';
import { serializeRun } from '../wire/serialize';

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

  // The final values come from the run's stream log: the thread may already be deleted.
  app.post('/wait', async (c) => {
    const created = await createRunFromRequest(c, deps, null);
    if (created instanceof Response) return created;
    const { run_id } = created.run;
    await streams.ended(run_id);
    const values = streams.result(run_id);
    if (values === undefined) return jsonError(c, 404, `Run ${run_id} was deleted (rolled back)`);
    const error = streams.errorOf(run_id);
    return c.json(error ? { ...(values ?? {}), __error__: error } : values);
  });

  app.post('/stream', async (c) => {
    const created = await createRunFromRequest(c, deps, null);
    if (created instanceof Response) return created;
    const cancelOnDisconnect = created.body.on_disconnect === 'cancel';
    return streamRunEvents(c, deps, created.run, { from: 0, cancelOnDisconnect });
  });

  return app;
}
