import type { GroupBy, Stride } from '@/contracts/usage';
import { bucketOrigin } from '@/lib/usage/stride';
import { planRange } from './time-segments';

/** A validated, authorised usage query: `workspaceIds` are already limited to readable ones. */
export interface UsageQueryPlan {
  startMs: number;
  endMs: number;
  /** No data before this instant (the cloud floor), or null. */
  floorMs: number | null;
  workspaceIds: readonly string[];
  groupBy: GroupBy;
  stride: Stride;
}

/** Per group_by: the trace column holding the dimension id, and where its label comes from. */
const DIMENSIONS = {
  workspace: { column: 'workspace_id', table: 'workspaces', label: 'display_name' },
  project: { column: 'project_id', table: 'projects', label: 'name' },
  user: { column: 'user_id', table: 'users', label: 'email' },
  api_key: { column: 'api_key_id', table: 'api_keys', label: 'short_key' },
} as const satisfies Record<GroupBy, { column: string; table: string; label: string }>;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * One SQL statement answering a usage query. Output columns, one row per (bucket, dimension)
 * with traces > 0, ordered by bucket, then label, then id: `bucket_ms` (DOUBLE), `dim_id`,
 * `label` (VARCHAR, either may be NULL), `traces` (DOUBLE). Identifiers come from the fixed
 * table above; every value is a bound parameter. Null when no data can match. `rawOnly`
 * ignores the rollup (the benchmark's baseline: the same answer from unaggregated rows).
 */
export function buildUsageSql(
  plan: UsageQueryPlan,
  options: { rawOnly?: boolean } = {},
): { sql: string; values: (string | number)[] } | null {
  const dim = DIMENSIONS[plan.groupBy];
  const values: (string | number)[] = [];
  const bind = (value: string | number) => {
    values.push(value);
    return `$${values.length}`;
  };
  const hourly = plan.stride.days === 0;
  const from = Math.max(plan.startMs, plan.floorMs ?? plan.startMs);
  const { rollupDays, rawIntervals } = planRange(from, plan.endMs, !hourly && !options.rawOnly);
  const workspaces = `workspace_id IN (${plan.workspaceIds.map((id) => `${bind(id)}::UUID`).join(', ')})`;

  const sources: string[] = [];
  if (rollupDays) {
    sources.push(`SELECT day::TIMESTAMP AS ts, dim_id, traces FROM usage_daily
      WHERE grouping = ${bind(plan.groupBy)} AND ${workspaces}
        AND day >= ${bind(iso(rollupDays.from))}::DATE AND day < ${bind(iso(rollupDays.to))}::DATE`);
  }
  for (const interval of rawIntervals) {
    sources.push(`SELECT start_time AS ts, ${dim.column} AS dim_id, 1 AS traces FROM traces
      WHERE ${workspaces} AND start_time >= ${bind(iso(interval.from))}::TIMESTAMP
        AND start_time < ${bind(iso(interval.to))}::TIMESTAMP`);
  }
  // Nothing to read (the whole range lies before the floor): the answer is no rows.
  if (sources.length === 0) return null;

  const bucket = hourly
    ? `date_trunc('hour', ts)`
    : `time_bucket(to_days(${bind(plan.stride.days)}::INTEGER), ts, ${bind(iso(bucketOrigin(plan.startMs, plan.stride)))}::TIMESTAMP)`;

  const sql = `
    WITH facts AS (${sources.join('\n      UNION ALL ')}),
    buckets AS (
      SELECT ${bucket} AS bucket, dim_id, sum(traces) AS traces FROM facts GROUP BY ALL
    )
    SELECT epoch_ms(b.bucket)::DOUBLE AS bucket_ms, b.dim_id::VARCHAR AS dim_id,
      d.${dim.label} AS label, b.traces::DOUBLE AS traces
    FROM buckets b LEFT JOIN ${dim.table} d ON d.id = b.dim_id
    WHERE b.traces > 0
    ORDER BY b.bucket, label NULLS LAST, b.dim_id NULLS LAST`;
  return { sql, values };
}
