import type { DuckDBConnection } from '@duckdb/node-api';
import { LIMIT_TYPES, type LimitType } from '@contracts/usage/usage-limits';
import { TIER_IDS } from '@server/usage/model/trace-tiers';
import type { EffectiveLimit } from '@server/usage/store/usage-limit-store';

const TYPES_SQL = LIMIT_TYPES.map((type) => `('${type}')`).join(', ');

/**
 * Every limit in force, per workspace (workspaces without any are absent). An org default
 * applies to workspaces created on or after it was set; `apply_to: existing_without_limit`
 * gives older ones their own copy (see the routes).
 */
export async function loadEffectiveLimits(
  connection: DuckDBConnection,
): Promise<Map<string, EffectiveLimit[]>> {
  const reader = await connection.runAndReadAll(
    `SELECT w.id::VARCHAR, t.limit_type, coalesce(l.limit_value, d.limit_value)::DOUBLE,
       coalesce(l.alert_thresholds, [50, 80, 100]), CASE WHEN l.id IS NULL THEN 'org_default' ELSE 'own' END
     FROM workspaces w CROSS JOIN (VALUES ${TYPES_SQL}) t(limit_type)
     LEFT JOIN usage_limits l ON l.tenant_id = w.id AND l.limit_type = t.limit_type
     LEFT JOIN usage_limit_defaults d ON d.limit_type = t.limit_type AND w.created_at >= d.created_at
     WHERE l.id IS NOT NULL OR d.limit_type IS NOT NULL
     ORDER BY 1, 2`,
  );
  const limits = new Map<string, EffectiveLimit[]>();
  for (const [workspaceId, type, value, thresholds, source] of reader.getRowsJS()) {
    const id = String(workspaceId);
    const list = limits.get(id) ?? [];
    list.push({
      workspaceId: id,
      limitType: type as LimitType,
      limitValue: Number(value),
      thresholds: Array.isArray(thresholds) ? thresholds.map(Number) : [],
      source: source === 'own' ? 'own' : 'org_default',
    });
    limits.set(id, list);
  }
  return limits;
}

/**
 * Traces counted against each limit type this month, per workspace, from the daily rollup:
 * `monthly_traces` counts all traces ingested in `[startMs, endMs)` (grouping `workspace`),
 * `monthly_longlived_traces` the long-lived ones among them (grouping `trace_tier`). One read of
 * a few rows per workspace and day.
 */
export async function loadMonthUsage(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
  month: { startMs: number; endMs: number },
): Promise<Map<string, Record<LimitType, number>>> {
  const usage = new Map<string, Record<LimitType, number>>();
  for (const id of workspaceIds) usage.set(id, { monthly_traces: 0, monthly_longlived_traces: 0 });
  if (workspaceIds.length === 0) return usage;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const reader = await connection.runAndReadAll(
    `SELECT workspace_id::VARCHAR,
       sum(traces) FILTER (WHERE grouping = 'workspace')::DOUBLE,
       coalesce(sum(traces) FILTER (WHERE grouping = 'trace_tier'), 0)::DOUBLE
     FROM usage_daily
     WHERE (grouping = 'workspace' OR (grouping = 'trace_tier' AND dim_id = $4::UUID))
       AND day >= $2::DATE AND day < $3::DATE
       AND list_contains(string_split($1, ','), workspace_id::VARCHAR)
     GROUP BY 1`,
    [workspaceIds.join(','), day(month.startMs), day(month.endMs), TIER_IDS.longlived],
  );
  for (const [workspaceId, traces, longLived] of reader.getRowsJS()) {
    const entry = usage.get(String(workspaceId));
    if (!entry) continue;
    entry.monthly_traces = Number(traces ?? 0);
    entry.monthly_longlived_traces = Number(longLived);
  }
  return usage;
}
