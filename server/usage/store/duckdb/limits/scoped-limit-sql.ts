import type { DuckDBConnection } from '@duckdb/node-api';
import type { LimitScope, ScopedLimit } from '@contracts/usage/usage-limits';
import { scopedLimitParams } from '@server/usage/limits/scoped-limit-params';
import type { ScopedLimitWrite } from '@server/usage/store/usage-limit-store';
import { isoSql } from './limit-sql';

const COLUMNS = `id::VARCHAR, tenant_id::VARCHAR, scope, target_id::VARCHAR, limit_type,
  limit_value, extended_share, derived_traces::DOUBLE, derived_longlived::DOUBLE,
  alert_thresholds, ${isoSql('created_at')}, ${isoSql('updated_at')}`;

function toScoped(row: unknown[]): ScopedLimit {
  const [id, tenant, scope, target, type, value, share, traces, longlived, thresholds] = row;
  return {
    id: String(id),
    tenant_id: String(tenant),
    scope: scope as LimitScope,
    target_id: String(target),
    limit_type: type === 'monthly_spend' ? 'monthly_spend' : 'monthly_traces',
    limit_value: Number(value),
    extended_share: share === null ? null : Number(share),
    derived:
      traces === null
        ? null
        : { monthly_traces: Number(traces), monthly_longlived_traces: Number(longlived) },
    alert_thresholds: Array.isArray(thresholds) ? thresholds.map(Number) : [],
    created_at: String(row[10]),
    updated_at: String(row[11]),
  };
}

/** The project, user and spend limits of `workspaceIds`, by workspace, scope, target, type. */
export async function listScopedLimits(
  connection: DuckDBConnection,
  workspaceIds: readonly string[] | 'all',
): Promise<ScopedLimit[]> {
  if (workspaceIds !== 'all' && workspaceIds.length === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT ${COLUMNS} FROM usage_scoped_limits
     WHERE $1 OR list_contains(string_split($2, ','), tenant_id::VARCHAR)
     ORDER BY tenant_id, scope, target_id, limit_type`,
    [workspaceIds === 'all', workspaceIds === 'all' ? '' : workspaceIds.join(',')],
  );
  return reader.getRowsJS().map(toScoped);
}

export async function findScopedLimit(
  connection: DuckDBConnection,
  id: string,
): Promise<ScopedLimit | undefined> {
  const reader = await connection.runAndReadAll(
    `SELECT ${COLUMNS} FROM usage_scoped_limits WHERE id = $1::UUID`,
    [id],
  );
  const [row] = reader.getRowsJS();
  return row ? toScoped(row) : undefined;
}

/** Creates or updates one limit: an update keeps the id, `created_at` and unchanged thresholds. */
export async function upsertScopedLimit(
  connection: DuckDBConnection,
  write: ScopedLimitWrite,
): Promise<ScopedLimit> {
  const [id, tenant, scope, target, type, value, share, traces, longlived, thresholds, given] =
    scopedLimitParams(write);
  await connection.run(
    `INSERT INTO usage_scoped_limits VALUES ($1::UUID, $2::UUID, $3, $4::UUID, $5, $6::DOUBLE,
       $7::DOUBLE, $8::BIGINT, $9::BIGINT, string_split($10, ',')::INTEGER[], now()::TIMESTAMP,
       now()::TIMESTAMP)
     ON CONFLICT (tenant_id, scope, target_id, limit_type) DO UPDATE SET
       limit_value = EXCLUDED.limit_value, extended_share = EXCLUDED.extended_share,
       derived_traces = EXCLUDED.derived_traces, derived_longlived = EXCLUDED.derived_longlived,
       alert_thresholds = CASE WHEN $11 THEN EXCLUDED.alert_thresholds
         ELSE usage_scoped_limits.alert_thresholds END,
       updated_at = EXCLUDED.updated_at`,
    // The thresholds as text, split by the statement (a list is not bound as one parameter).
    [id, tenant, scope, target, type, value, share, traces, longlived, thresholds.join(','), given],
  );
  const reader = await connection.runAndReadAll(
    `SELECT ${COLUMNS} FROM usage_scoped_limits
     WHERE tenant_id = $1::UUID AND scope = $2 AND target_id = $3::UUID AND limit_type = $4`,
    [write.tenantId, write.scope, write.targetId, write.limitType],
  );
  const [row] = reader.getRowsJS();
  if (!row) throw new Error('The usage limit just written is missing.');
  return toScoped(row);
}

export async function deleteScopedLimit(connection: DuckDBConnection, id: string): Promise<void> {
  await connection.run('DELETE FROM usage_scoped_limits WHERE id = $1::UUID', [id]);
}

/**
 * Traces of the month so far per project or user target (`scope|target` keys), from the daily
 * rollup's `project` and `user` groupings: the count a project or user limit is held to.
 */
export async function loadTargetUsage(
  connection: DuckDBConnection,
  targets: readonly { scope: LimitScope; targetId: string }[],
  month: { startMs: number; endMs: number },
): Promise<Map<string, number>> {
  const usage = new Map<string, number>();
  if (targets.length === 0) return usage;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const reader = await connection.runAndReadAll(
    `SELECT grouping || '|' || dim_id::VARCHAR, sum(traces)::DOUBLE FROM usage_daily
     WHERE grouping IN ('project', 'user') AND day >= $2::DATE AND day < $3::DATE
       AND list_contains(string_split($1, ','), grouping || '|' || dim_id::VARCHAR)
     GROUP BY 1`,
    [
      targets.map((target) => `${target.scope}|${target.targetId}`).join(','),
      day(month.startMs),
      day(month.endMs),
    ],
  );
  // Every target asked for is answered, as the other backend's counters do (0: none yet).
  for (const target of targets) usage.set(`${target.scope}|${target.targetId}`, 0);
  for (const [key, traces] of reader.getRowsJS()) usage.set(String(key), Number(traces ?? 0));
  return usage;
}
