import type { Pool } from 'pg';
import type { AlertDelivery, LimitScope, LimitType } from '@contracts/usage/usage-limits';
import {
  deliveryColumns,
  type AlertRow,
  type DeliveryAttempt,
  type RefusalCount,
  type ScopedAlertRow,
} from '@server/usage/store/usage-limit-store';
import { insertAlertsOnce, type AlertColumn } from './insert-alerts-once';
import { isoSql } from './limit-sql';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface StoredAlert {
  alert_id: string;
  workspace_id: string;
  limit_type: LimitType;
  threshold: number;
  used: number;
  limit_value: number;
  crossed_at: string;
}

/** The alerts of `workspaceIds` in the month starting at `monthStartMs`. */
export async function listAlerts(
  pool: Pool,
  workspaceIds: readonly string[],
  monthStartMs: number,
): Promise<AlertRow[]> {
  if (workspaceIds.length === 0) return [];
  const result = await pool.query<StoredAlert>(
    `SELECT alert_id, workspace_id::text, limit_type, threshold, used::float8 AS used,
       limit_value::float8 AS limit_value, ${isoSql('crossed_at')} AS crossed_at
     FROM usage.usage_limit_alerts WHERE workspace_id = ANY($1::uuid[]) AND month = $2::date
     ORDER BY workspace_id, limit_type, threshold`,
    [workspaceIds, day(monthStartMs)],
  );
  return result.rows.map((row) => ({
    alertId: row.alert_id,
    workspaceId: row.workspace_id,
    limitType: row.limit_type,
    monthStartMs,
    threshold: Number(row.threshold),
    used: Number(row.used),
    limitValue: Number(row.limit_value),
    crossedAt: new Date(row.crossed_at),
  }));
}

const ALERT_COLUMNS: readonly AlertColumn<AlertRow>[] = [
  { name: 'workspace_id', type: 'uuid', value: (row) => row.workspaceId },
  { name: 'limit_type', type: 'text', value: (row) => row.limitType },
  { name: 'month', type: 'date', value: (row) => day(row.monthStartMs) },
  { name: 'threshold', type: 'integer', value: (row) => row.threshold },
  { name: 'alert_id', type: 'text', value: (row) => row.alertId },
  { name: 'used', type: 'bigint', value: (row) => String(row.used) },
  { name: 'limit_value', type: 'bigint', value: (row) => String(row.limitValue) },
  { name: 'crossed_at', type: 'timestamptz', value: (row) => row.crossedAt.toISOString() },
];

/**
 * Records new alerts and returns those that were new: one per (workspace, type, month,
 * threshold) across replicas.
 */
export const insertAlerts = (pool: Pool, rows: readonly AlertRow[]): Promise<AlertRow[]> =>
  insertAlertsOnce(pool, 'usage.usage_limit_alerts', ALERT_COLUMNS, rows);

/** Logs a delivery attempt of a workspace, project, user or spend limit's alert. */
export async function recordDelivery(
  pool: Pool,
  alert: Pick<AlertRow | ScopedAlertRow, 'alertId' | 'workspaceId' | 'limitType' | 'threshold'>,
  attempt: DeliveryAttempt,
): Promise<void> {
  await pool.query(
    `INSERT INTO usage.usage_limit_deliveries
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz AT TIME ZONE 'UTC', $7, $8, $9)`,
    deliveryColumns(alert, attempt),
  );
}

interface StoredDelivery {
  alert_id: string;
  workspace_id: string;
  limit_type: LimitType;
  threshold: number;
  attempt: number;
  attempted_at: string;
  status: number | null;
  ok: boolean;
  error: string | null;
  scope: LimitScope | null;
  target_id: string | null;
}

/** The latest delivery attempts of `workspaceIds`, newest first. */
export async function listDeliveries(
  pool: Pool,
  workspaceIds: readonly string[],
  limit = 50,
): Promise<AlertDelivery[]> {
  if (workspaceIds.length === 0) return [];
  const result = await pool.query<StoredDelivery>(
    `SELECT d.alert_id, d.workspace_id::text, d.limit_type, d.threshold, d.attempt,
       ${isoSql('d.attempted_at')} AS attempted_at, d.status, d.ok, d.error, s.scope,
       s.target_id::text
     FROM usage.usage_limit_deliveries d
     LEFT JOIN usage.usage_scoped_limit_alerts s ON s.alert_id = d.alert_id
     WHERE d.workspace_id = ANY($1::uuid[])
     ORDER BY d.attempted_at DESC, d.attempt DESC LIMIT $2`,
    [workspaceIds, Math.floor(limit)],
  );
  // A project, user or spend limit's attempt names its limit, as the DuckDB backend's does.
  return result.rows.map(({ scope, target_id, ...delivery }) =>
    scope === null || target_id === null ? delivery : { ...delivery, scope, target_id },
  );
}

/** Root runs refused per (workspace, limit type) in `[fromMs, toMs)`, optionally of one project. */
export async function countRefusals(
  pool: Pool,
  workspaceIds: readonly string[],
  range: { fromMs: number; toMs: number },
  project?: string,
): Promise<RefusalCount[]> {
  if (workspaceIds.length === 0) return [];
  const result = await pool.query<{ workspace_id: string; limit_type: LimitType; n: number }>(
    `SELECT workspace_id::text, limit_type, sum(refused)::float8 AS n
     FROM usage.usage_limit_refusals
     WHERE workspace_id = ANY($1::uuid[])
       AND minute >= date_trunc('minute', $2::timestamptz AT TIME ZONE 'UTC')
       AND minute < $3::timestamptz AT TIME ZONE 'UTC'
       AND ($4::bytea IS NULL OR project_name = $4)
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [
      workspaceIds,
      new Date(range.fromMs).toISOString(),
      new Date(range.toMs).toISOString(),
      project === undefined ? null : Buffer.from(project, 'utf8'),
    ],
  );
  return result.rows.map((row) => ({
    workspaceId: row.workspace_id,
    limitType: row.limit_type,
    refused: Number(row.n),
  }));
}
