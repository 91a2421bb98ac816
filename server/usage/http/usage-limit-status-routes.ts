import { Hono } from 'hono';
import { parseIsoDateTime } from '@contracts/usage/iso-datetime';
import { jsonError } from '@server/http/json-error';
import { loadLimitStatus } from '../limits/limit-status';
import { planTracePrices } from '../limits/plan-prices';
import { USAGE_LIMITS_MANAGE_PERMISSION } from '../seed/demo-keys';
import type { UsageStore } from '../store/usage-store';
import type { UsageLimitStore } from '../store/usage-limit-store';
import { authorizeLimits } from './limit-request';

/**
 * What the console adds to the usage-limits API, for the usage tab and the playground (all
 * need organization:read and cover the workspaces the key reads):
 * `GET /usage-limits/org/status` this month's standing per workspace and limit type, then of
 * each project, user and spend limit (spend in dollars at the plan's prices now),
 * `GET /usage-limits/org/deliveries` the webhook delivery log, and
 * `GET /usage-limits/refusals?project=&start_time=&end_time=` root runs a limit refused.
 */
export function createUsageLimitStatusRoutes(
  backend: UsageStore,
  limits: UsageLimitStore,
  now: () => number = Date.now,
): Hono {
  const app = new Hono();

  app.get('/usage-limits/org/status', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    const manager = auth.principal.permissions.includes(USAGE_LIMITS_MANAGE_PERMISSION);
    const workspaces = auth.principal.workspaces.map((ws) => ({
      id: ws.id,
      canEdit: manager && !ws.read_only,
    }));
    const prices = () => planTracePrices(backend.ledger);
    return c.json(await loadLimitStatus(limits, workspaces, now(), prices));
  });

  app.get('/usage-limits/org/deliveries', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    const ids = auth.principal.workspaces.map((ws) => ws.id);
    return c.json(await limits.deliveries(ids));
  });

  app.get('/usage-limits/refusals', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    const project = c.req.query('project');
    const fromMs = parseIsoDateTime(c.req.query('start_time') ?? '');
    const toMs = parseIsoDateTime(c.req.query('end_time') ?? '');
    const problems = [
      fromMs === undefined ? 'start_time' : null,
      toMs === undefined ? 'end_time' : null,
    ]
      .filter((name) => name !== null)
      .map((name) => ({
        loc: ['query', name],
        msg: 'Input should be a valid datetime (ISO 8601, e.g. 2026-01-05T00:00:00Z)',
        type: 'datetime_parsing',
      }));
    if (fromMs === undefined || toMs === undefined) return jsonError(c, 422, problems);
    const ids = auth.principal.workspaces.map((ws) => ws.id);
    const rows = await limits.refusals(ids, { fromMs, toMs }, project || undefined);
    return c.json({
      refused: rows.reduce((sum, row) => sum + row.refused, 0),
      workspace_ids: [...new Set(rows.map((row) => row.workspaceId))],
      limit_types: [...new Set(rows.map((row) => row.limitType))],
    });
  });

  return app;
}
