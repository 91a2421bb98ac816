import type { Pool } from 'pg';
import type { AlertDelivery, LimitType } from '@contracts/usage/usage-limits';
import {
  deliveryColumns,
  type AlertRow,
  type DeliveryAttempt,
  type RefusalCount,
} from '@server/usage/store/usage-limit-store';
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

/**
 * Records new alerts in one statement and returns those that were new: the primary key on
 * (workspace, type, month, threshold) lets one replica win each, so an alert is sent once
 * whatever the number of replicas evaluating at the same moment.
 */
export async function insertAlerts(pool: Pool, rows: readonly AlertRow[]): Promise<AlertRow[]> {
  if (rows.length === 0) return [];
  const result = await pool.query<{ alert_id: string }>(
    `INSERT INTO usage.usage_limit_alerts
     SELECT r.workspace_id, r.limit_type, r.month, r.threshold, r.alert_id, r.used, r.limit_value,
       r.crossed_at AT TIME ZONE 'UTC'
     FROM unnest($1::uuid[], $2::text[], $3::date[], $4::integer[], $5::text[], $6::bigint[],
       $7::bigint[], $8::timestamptz[])
       AS r (workspace_id, limit_type, month, threshold, alert_id, used, limit_value, crossed_at)
     ON CONFLICT DO NOTHING RETURNING alert_id`,
    [
      rows.map((row) => row.workspaceId),
      rows.map((row) => row.limitType),
      rows.map((row) => day(row.monthStartMs)),
      rows.map((row) => row.threshold),
      rows.map((row) => row.alertId),
      rows.map((row) => String(row.used)),
      rows.map((row) => String(row.limitValue)),
      rows.map((row) => row.crossedAt.toISOString()),
    ],
  );
  const won = new Set(result.rows.map((row) => row.alert_id));
  return rows.filter((row) => won.has(row.alertId));
}

export async function recordDelivery(
  pool: Pool,
  alert: AlertRow,
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
}

/** The latest delivery attempts of `workspaceIds`, newest first. */
export async function listDeliveries(
  pool: Pool,
  workspaceIds: readonly string[],
  limit = 50,
): Promise<AlertDelivery[]> {
  if (workspaceIds.length === 0) return [];
  const result = await pool.query<StoredDelivery>(
    `SELECT alert_id, workspace_id::text, limit_type, threshold, attempt,
       ${isoSql('attempted_at')} AS attempted_at, status, ok, error
     FROM usage.usage_limit_deliveries WHERE workspace_id = ANY($1::uuid[])
     ORDER BY attempted_at DESC, attempt DESC LIMIT $2`,
    [workspaceIds, Math.floor(limit)],
  );
  return result.rows;
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
