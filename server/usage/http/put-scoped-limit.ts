import type { Context } from 'hono';
import { DEFAULT_PLAN } from '@contracts/usage/pricing';
import { limitKindSchema, putScopedLimitBodySchema } from '@contracts/usage/usage-limit-bodies';
import { SPEND_LIMIT_TYPE } from '@contracts/usage/usage-limits';
import { jsonError } from '@server/http/json-error';
import { deriveTraceLimits } from '../model/spend-limit';
import type { UsageLimitStore } from '../store/usage-limit-store';
import type { Principal, UsageStore } from '../store/usage-store';
import { limitWorkspace, parseBody } from './limit-request';

/**
 * Whether a `PUT /usage-limits` body is a project, user or spend limit (else a workspace one):
 * any scope but `workspace` is, so an unknown scope is refused rather than read as a workspace's.
 */
export async function isScopedWrite(c: Context): Promise<boolean> {
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch {
    return false;
  }
  const kind = limitKindSchema.safeParse(json);
  if (!kind.success) return true;
  return kind.data.scope !== 'workspace' || kind.data.limit_type === SPEND_LIMIT_TYPE;
}

interface ScopedDeps {
  backend: UsageStore;
  limits: UsageLimitStore;
  principal: Principal;
  changed: (workspaceIds: string[]) => Promise<unknown>;
}

/**
 * `PUT /usage-limits` of a project or user trace limit, or a workspace spend limit: validate ->
 * workspace -> store -> respond. A spend limit is stored with the trace limits it buys at the
 * plan's prices now (base, and base plus upgrade for extended); ingestion holds traces to those.
 */
export async function putScopedLimit(
  c: Context,
  { backend, limits, principal, changed }: ScopedDeps,
): Promise<Response> {
  const parsed = await parseBody(c, putScopedLimitBodySchema);
  if ('response' in parsed) return parsed.response;
  const target = await limitWorkspace(c, backend, principal, 'write');
  if ('response' in target) return target.response;
  const scoped = limits.scoped;
  const { body } = parsed;
  const existing = body.id ? await scoped.find(body.id) : undefined;
  if (body.id && (!existing || existing.tenant_id !== target.workspaceId)) {
    return jsonError(c, 404, `Usage limit ${body.id} not found.`);
  }
  const spend = body.limit_type === SPEND_LIMIT_TYPE;
  const targetId = spend ? target.workspaceId : body.target_id.toLowerCase();
  if (
    existing &&
    (existing.limit_type !== body.limit_type ||
      existing.scope !== body.scope ||
      existing.target_id !== targetId)
  ) {
    return jsonError(c, 422, [
      {
        loc: ['body', 'id'],
        msg: `Usage limit ${body.id} holds another scope, target or type: delete it and create another.`,
        type: 'value_error',
      },
    ]);
  }
  let derived = null;
  if (spend) {
    const plan = (await backend.ledger.plan()) ?? DEFAULT_PLAN;
    const base = plan.unit_prices.base_traces;
    derived = deriveTraceLimits(body.limit_value, body.extended_share, {
      base,
      extended: base + plan.unit_prices.extended_upgrades,
    });
  }
  const stored = await scoped.upsert({
    tenantId: target.workspaceId,
    scope: body.scope,
    targetId,
    limitType: body.limit_type,
    limitValue: body.limit_value,
    extendedShare: spend ? body.extended_share : null,
    derived,
    thresholds: body.alert_thresholds,
  });
  await changed([target.workspaceId]);
  return c.json(stored);
}
