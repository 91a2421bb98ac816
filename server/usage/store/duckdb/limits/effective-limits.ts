import type { DuckDBConnection } from '@duckdb/node-api';
import { LIMIT_TYPES, type LimitType } from '@contracts/usage/usage-limits';
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
 * Traces counted against each limit type this month, per workspace: `monthly_traces` counts all
 * traces ingested in `[startMs, endMs)` (from the daily rollup); `monthly_longlived_traces` the
 * long-lived ones among them (from the traces: the rollup holds no tier), unless `longLived` is
 * false, when that count is left at 0 and the month's traces are not read.
 */
export async function loadMonthUsage(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
  month: { startMs: number; endMs: number },
  { longLived = true }: { longLived?: boolean } = {},
): Promise<Map<string, Record<LimitType, number>>> {
  const usage = new Map<string, Record<LimitType, number>>();
  for (const id of workspaceIds) usage.set(id, { monthly_traces: 0, monthly_longlived_traces: 0 });
  if (workspaceIds.length === 0) return usage;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const reader = await connection.runAndReadAll(
    `SELECT workspace_id::VARCHAR, sum(traces)::DOUBLE FROM usage_daily
     WHERE grouping = 'workspace' AND day >= $2::DATE AND day < $3::DATE
       AND list_contains(string_split($1, ','), workspace_id::VARCHAR)
     GROUP BY 1`,
    [workspaceIds.join(','), day(month.startMs), day(month.endMs)],
  );
  for (const [workspaceId, traces] of reader.getRowsJS()) {
    const entry = usage.get(String(workspaceId));
    if (entry) entry.monthly_traces = Number(traces);
  }
  if (!longLived) return usage;
  const longLivedRows = await connection.runAndReadAll(
    `SELECT workspace_id::VARCHAR, count(*)::DOUBLE FROM traces
     WHERE trace_tier = 'longlived' AND start_time >= $2::TIMESTAMP AND start_time < $3::TIMESTAMP
       AND list_contains(string_split($1, ','), workspace_id::VARCHAR)
     GROUP BY 1`,
    [
      workspaceIds.join(','),
      new Date(month.startMs).toISOString(),
      new Date(month.endMs).toISOString(),
    ],
  );
  for (const [workspaceId, traces] of longLivedRows.getRowsJS()) {
    const entry = usage.get(String(workspaceId));
    if (entry) entry.monthly_longlived_traces = Number(traces);
  }
  return usage;
}
