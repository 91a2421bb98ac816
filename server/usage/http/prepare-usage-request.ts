import type { Context } from 'hono';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { strideForRange } from '@contracts/usage/stride';
import { jsonError } from '@server/http/json-error';
import type { DeploymentQueryPlan } from '../model/deployment-plan';
import type { LlmQueryPlan } from '../model/llm-usage-plan';
import type { UsageQueryPlan } from '../model/usage-plan';
import type { UsageStore } from '../store/usage-store';
import { authenticate } from './authenticate';
import { parseUsageQuery } from './parse-usage-query';

/** Whether usage data is served, and from when (spec section 1). */
export interface UsageAvailability {
  enabled: boolean;
  /** Cloud: no data before 2026-01-05; null when there is no floor (self-hosted). */
  floorMs: number | null;
}

export const FEATURE_DISABLED_DETAIL =
  'Granular usage reporting is not enabled on this self-hosted deployment. Set both ' +
  'DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING=true and GRANULAR_USAGE_TABLE_ENABLED=true.';

/**
 * A request ready to query: traces (the default), the Deployments domain or LLM usage. `includeContext`:
 * an export fills the group's context columns too (`include_context=true`, beyond the spec).
 */
export type PreparedUsage = { includeContext: boolean } & (
  | { kind: 'traces'; plan: UsageQueryPlan }
  | { kind: 'langsmith_deployments'; plan: DeploymentQueryPlan }
  | { kind: 'llm_usage'; plan: LlmQueryPlan }
);

/**
 * The steps every usage endpoint runs before querying, in this order:
 * 401 unknown key -> 403 no organization:read -> 404 feature disabled (self-hosted) ->
 * 422 invalid query -> 403 no requested workspace readable. Returns the query plan, limited to
 * the requested workspaces the key can read, or the error response.
 */
export async function prepareUsageRequest(
  c: Context,
  backend: UsageStore,
  availability: UsageAvailability,
): Promise<{ prepared: PreparedUsage } | { response: Response }> {
  const auth = await authenticate(c, backend);
  if ('response' in auth) return auth;
  const { principal } = auth;
  if (!principal.permissions.includes('organization:read')) {
    return { response: jsonError(c, 403, 'This API key lacks the organization:read permission.') };
  }
  if (!availability.enabled) return { response: jsonError(c, 404, FEATURE_DISABLED_DETAIL) };

  const parsed = parseUsageQuery(c);
  if (!parsed.ok) return { response: jsonError(c, 422, parsed.issues) };
  const { query } = parsed;

  const readable = new Set(principal.workspaces.map((workspace) => workspace.id));
  const workspaceIds = query.workspace_ids.filter((id) => readable.has(id));
  if (workspaceIds.length === 0) {
    return {
      response: jsonError(c, 403, 'This API key cannot read any of the requested workspaces.'),
    };
  }
  const base = {
    grid: createBucketGrid(
      query.start_time,
      query.end_time,
      strideForRange(query.start_time, query.end_time),
    ),
    floorMs: availability.floorMs,
    workspaceIds,
  };
  const groupBy = query.group_by;
  const includeContext = query.include_context;
  if (query.kind === 'llm_usage') {
    // The query schema refuses group_by=trace_tier with LLM usage (422 above).
    if (groupBy === 'trace_tier') throw new Error('unreachable: trace_tier with LLM usage');
    return { prepared: { kind: query.kind, plan: { ...base, groupBy }, includeContext } };
  }
  // The query schema keeps group_by=model to LLM usage (422 above).
  if (groupBy === 'model') throw new Error('unreachable: group_by=model without LLM usage');
  if (query.kind === 'langsmith_deployments') {
    // The query schema refuses group_by=trace_tier with deployments (422 above).
    if (groupBy === 'trace_tier') throw new Error('unreachable: trace_tier with deployments');
    return { prepared: { kind: query.kind, plan: { ...base, groupBy }, includeContext } };
  }
  const traces = { ...base, groupBy, ...(query.trace_tier && { traceTier: query.trace_tier }) };
  return { prepared: { kind: 'traces', plan: traces, includeContext } };
}
