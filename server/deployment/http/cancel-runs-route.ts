import { Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import { authDecisionOf } from '../auth/auth-door';
import { cancelRuns } from '../use-cases/cancel-runs';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import { cancelRunsBody, cancelRunsQuery } from '../wire/cancel-runs-request';
import { parseJsonBody, parseWith } from '../wire/request';

/** `POST /runs/cancel`: the SDK's `runs.cancelMany`, 204 once every selected run is stopped. */
export function createCancelRunsRoute(deps: DeploymentDeps) {
  const app = new Hono();
  app.post('/cancel', async (c) => {
    const query = parseWith(cancelRunsQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    const body = await parseJsonBody(c, cancelRunsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { filters } = authDecisionOf(c);
    const done = await cancelRuns(deps, body.data, query.data.action, filters);
    if (!done) return jsonError(c, 404, 'Run not found');
    return c.body(null, 204);
  });
  return app;
}
