import { Hono } from 'hono';
import {
  putOrgDefaultBodySchema,
  putUsageLimitBodySchema,
} from '@contracts/usage/usage-limit-bodies';
import type { UsageLimit } from '@contracts/usage/usage-limits';
import type { Workspace } from '@contracts/usage/usage-schema';
import { jsonError } from '@server/http/json-error';
import type { AlertEvaluator } from '../limits/alert-evaluator';
import type { UsageStore } from '../store/usage-store';
import type { StoredLimit, UsageLimitStore } from '../store/usage-limit-store';
import { authorizeLimits, limitWorkspace, parseBody } from './limit-request';
import { isScopedWrite, putScopedLimit } from './put-scoped-limit';
import { recordChange } from './record-change';

export interface LimitRouteDeps {
  backend: UsageStore;
  limits: UsageLimitStore;
  alerts: AlertEvaluator;
}

/** What the audit log keeps of a limit: its value and alert thresholds. */
const audited = (limit: StoredLimit | undefined) =>
  limit ? { limit_value: limit.limit_value, alert_thresholds: limit.alert_thresholds } : null;

/** LangSmith's `UsageLimit`: the stored row without this console's thresholds. */
const wire = ({ alert_thresholds: _thresholds, ...limit }: StoredLimit): UsageLimit => limit;

/**
 * LangSmith's usage-limits API, relative to `/api/v1`: validate -> authorise -> query ->
 * respond. A write invalidates the limits the ingestion writer holds (the next batch sees it)
 * and looks at the workspace's alerts (a lowered limit can cross a threshold at once).
 */
export function createUsageLimitRoutes({ backend, limits, alerts }: LimitRouteDeps): Hono {
  const app = new Hono();
  const changed = (workspaceIds: string[]) => alerts.evaluate(workspaceIds).catch(() => undefined);

  app.get('/usage-limits', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    const target = await limitWorkspace(c, backend, auth.principal, 'read');
    if ('response' in target) return target.response;
    const own = (await limits.list([target.workspaceId])).map(wire);
    const scoped = await limits.scoped.list([target.workspaceId]);
    return c.json([...own, ...scoped]);
  });

  app.put('/usage-limits', async (c) => {
    const auth = await authorizeLimits(c, backend, 'write');
    if ('response' in auth) return auth.response;
    if (await isScopedWrite(c)) {
      return putScopedLimit(c, { backend, limits, principal: auth.principal, changed });
    }
    const parsed = await parseBody(c, putUsageLimitBodySchema);
    if ('response' in parsed) return parsed.response;
    const target = await limitWorkspace(c, backend, auth.principal, 'write');
    if ('response' in target) return target.response;
    const { body } = parsed;
    const existing = body.id ? await limits.find(body.id) : undefined;
    if (body.id && (!existing || existing.tenant_id !== target.workspaceId)) {
      return jsonError(c, 404, `Usage limit ${body.id} not found.`);
    }
    if (existing && existing.limit_type !== body.limit_type) {
      return jsonError(c, 422, [
        {
          loc: ['body', 'limit_type'],
          msg: `Usage limit ${body.id} is a different limit_type: delete it and create another.`,
          type: 'value_error',
        },
      ]);
    }
    const before =
      existing ??
      (await limits.list([target.workspaceId])).find(
        (limit) => limit.limit_type === body.limit_type,
      );
    const stored = await limits.upsert({
      tenantId: target.workspaceId,
      limitType: body.limit_type,
      limitValue: body.limit_value,
      thresholds: body.alert_thresholds,
    });
    await recordChange(c, backend, auth.principal, {
      action: 'usage_limit.set',
      target: limitTarget(auth.principal.workspaces, target.workspaceId, body.limit_type),
      before: audited(before),
      after: audited(stored),
    });
    await changed([target.workspaceId]);
    return c.json(wire(stored));
  });

  app.delete('/usage-limits/:id{[^/]+}', async (c) => {
    const auth = await authorizeLimits(c, backend, 'write');
    if ('response' in auth) return auth.response;
    const id = c.req.param('id').toLowerCase();
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
      return jsonError(c, 422, [
        {
          loc: ['path', 'usage_limit_id'],
          msg: 'Input should be a valid UUID',
          type: 'uuid_parsing',
        },
      ]);
    }
    const writable = new Set(
      auth.principal.workspaces.filter((ws) => !ws.read_only).map((ws) => ws.id),
    );
    const existing = (await limits.find(id)) ?? (await limits.scoped.find(id));
    // A limit of a workspace the key cannot change is "not found": ids say nothing to others.
    if (!existing || !writable.has(existing.tenant_id)) {
      return jsonError(c, 404, `Usage limit ${id} not found.`);
    }
    if ('scope' in existing) await limits.scoped.remove(id);
    else await limits.remove(id);
    await recordChange(c, backend, auth.principal, {
      action: 'usage_limit.remove',
      target: limitTarget(auth.principal.workspaces, existing.tenant_id, existing.limit_type),
      before: 'scope' in existing ? existing : audited(existing),
      after: null,
    });
    return c.json({});
  });

  app.get('/usage-limits/org', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    const ids = auth.principal.workspaces.map((ws) => ws.id);
    const scoped = await limits.scoped.list(ids);
    return c.json([...(await limits.list(ids)).map(wire), ...scoped]);
  });

  app.get('/usage-limits/org/default', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    return c.json(await limits.defaults());
  });

  app.put('/usage-limits/org/default', async (c) => {
    const auth = await authorizeLimits(c, backend, 'write');
    if ('response' in auth) return auth.response;
    const parsed = await parseBody(c, putOrgDefaultBodySchema);
    if ('response' in parsed) return parsed.response;
    const { body } = parsed;
    const writable = auth.principal.workspaces.filter((ws) => !ws.read_only).map((ws) => ws.id);
    const previous = (await limits.defaults()).find(
      (limit) => limit.limit_type === body.limit_type,
    );
    const stored = await limits.putDefault(body.limit_type, body.limit_value);
    const applied: string[] = [];
    if (body.apply_to === 'existing_without_limit') {
      const own = new Set(
        (await limits.list(writable))
          .filter((limit) => limit.limit_type === body.limit_type)
          .map((limit) => limit.tenant_id),
      );
      for (const id of writable.filter((workspaceId) => !own.has(workspaceId))) {
        await limits.upsert({
          tenantId: id,
          limitType: body.limit_type,
          limitValue: body.limit_value,
        });
        applied.push(id);
      }
    }
    await recordChange(c, backend, auth.principal, {
      action: 'usage_limit_default.set',
      target: `org default (${body.limit_type})`,
      before: previous ? { limit_value: previous.limit_value } : null,
      after: { limit_value: stored.limit_value, applied_to_workspaces: applied.length },
    });
    await changed(writable);
    return c.json({ default: stored, applied_to: applied });
  });

  return app;
}

/** A limit as the audit log names it: its workspace's name and its type. */
function limitTarget(workspaces: readonly Workspace[], workspaceId: string, limitType: string) {
  const name = workspaces.find((ws) => ws.id === workspaceId)?.display_name ?? workspaceId;
  return `${name} (${limitType})`;
}
