import type { Pool } from 'pg';
import type { LimitScope } from '@contracts/usage/usage-limits';
import type { ScopedAlertRow, ScopedRefusalCount } from '@server/usage/store/usage-limit-store';
import { insertAlertsOnce, type AlertColumn } from './insert-alerts-once';
import { isoSql } from './limit-sql';
import {
  readTargetUsage,
  targetKeyOf,
  type TargetBaseline,
  type TargetKey,
} from './target-counters';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface StoredScopedAlert {
  alert_id: string;
  workspace_id: string;
  scope: LimitScope;
  target_id: string;
  limit_type: string;
  threshold: number;
  used: number;
  limit_value: number;
  crossed_at: string;
}

/** The alerts of the project, user and spend limits of `workspaceIds` in the month. */
export async function listScopedAlerts(
  pool: Pool,
  workspaceIds: readonly string[],
  monthStartMs: number,
): Promise<ScopedAlertRow[]> {
  if (workspaceIds.length === 0) return [];
  const result = await pool.query<StoredScopedAlert>(
    `SELECT alert_id, workspace_id::text, scope, target_id::text, limit_type, threshold, used,
       limit_value, ${isoSql('crossed_at')} AS crossed_at
     FROM usage.usage_scoped_limit_alerts
     WHERE workspace_id = ANY($1::uuid[]) AND month = $2::date
     ORDER BY workspace_id, scope, target_id, limit_type, threshold`,
    [workspaceIds, day(monthStartMs)],
  );
  return result.rows.map((row) => ({
    alertId: row.alert_id,
    workspaceId: row.workspace_id,
    scope: row.scope,
    targetId: row.target_id,
    limitType: row.limit_type === 'monthly_spend' ? 'monthly_spend' : 'monthly_traces',
    monthStartMs,
    threshold: Number(row.threshold),
    used: Number(row.used),
    limitValue: Number(row.limit_value),
    crossedAt: new Date(row.crossed_at),
  }));
}

const SCOPED_ALERT_COLUMNS: readonly AlertColumn<ScopedAlertRow>[] = [
  { name: 'workspace_id', type: 'uuid', value: (row) => row.workspaceId },
  { name: 'scope', type: 'text', value: (row) => row.scope },
  { name: 'target_id', type: 'uuid', value: (row) => row.targetId },
  { name: 'limit_type', type: 'text', value: (row) => row.limitType },
  { name: 'month', type: 'date', value: (row) => day(row.monthStartMs) },
  { name: 'threshold', type: 'integer', value: (row) => row.threshold },
  { name: 'alert_id', type: 'text', value: (row) => row.alertId },
  { name: 'used', type: 'float8', value: (row) => row.used },
  { name: 'limit_value', type: 'float8', value: (row) => row.limitValue },
  { name: 'crossed_at', type: 'timestamptz', value: (row) => row.crossedAt.toISOString() },
];

/**
 * Records new alerts and returns those that were new: one per (workspace, scope, target, type,
 * month, threshold) across replicas.
 */
export const insertScopedAlerts = (
  pool: Pool,
  rows: readonly ScopedAlertRow[],
): Promise<ScopedAlertRow[]> =>
  insertAlertsOnce(pool, 'usage.usage_scoped_limit_alerts', SCOPED_ALERT_COLUMNS, rows);

/**
 * Traces of the month so far per project or user target, keyed `scope|target`: the target
 * counters every claim keeps (claims under way included), as enforcement counts them.
 */
export async function loadTargetUsage(
  pool: Pool,
  targets: readonly { scope: LimitScope; targetId: string }[],
  month: { startMs: number },
  baseline: TargetBaseline,
): Promise<Map<string, number>> {
  const keys = new Map<string, TargetKey>();
  for (const { scope, targetId } of targets) {
    if (scope === 'workspace') continue;
    keys.set(`${scope}|${targetId}`, {
      scope,
      targetId: targetId.toLowerCase(),
      month: day(month.startMs),
    });
  }
  const counted = await readTargetUsage(pool, [...keys.values()], baseline);
  return new Map([...keys].map(([target, key]) => [target, counted.get(targetKeyOf(key)) ?? 0]));
}

/**
 * Root runs refused per project, user and spend limit in `[fromMs, toMs)`; refusals by a
 * workspace's own limits, and older rows that do not name their refusing limit, are left out.
 */
export async function countScopedRefusals(
  pool: Pool,
  workspaceIds: readonly string[],
  range: { fromMs: number; toMs: number },
): Promise<ScopedRefusalCount[]> {
  if (workspaceIds.length === 0) return [];
  const result = await pool.query<{
    workspace_id: string;
    scope: LimitScope;
    target_id: string;
    spend: boolean;
    n: number;
  }>(
    `SELECT workspace_id::text, scope, target_id::text, spend, sum(refused)::float8 AS n
     FROM usage.usage_limit_refusals
     WHERE workspace_id = ANY($1::uuid[])
       AND minute >= date_trunc('minute', $2::timestamptz AT TIME ZONE 'UTC')
       AND minute < $3::timestamptz AT TIME ZONE 'UTC'
       AND target_id IS NOT NULL AND (scope IN ('project', 'user') OR spend)
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    [workspaceIds, new Date(range.fromMs).toISOString(), new Date(range.toMs).toISOString()],
  );
  return result.rows.map((row) => ({
    workspaceId: row.workspace_id,
    scope: row.scope,
    targetId: row.target_id,
    limitType: row.spend ? 'monthly_spend' : 'monthly_traces',
    refused: Number(row.n),
  }));
}
