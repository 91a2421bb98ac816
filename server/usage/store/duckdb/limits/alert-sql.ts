import type { DuckDBConnection } from '@duckdb/node-api';
import type {
  AlertDelivery,
  AlertedLimitType,
  LimitScope,
  LimitType,
} from '@contracts/usage/usage-limits';
import {
  deliveryColumns,
  type AlertRow,
  type DeliveryAttempt,
  type RefusalCount,
  type ScopedAlertRow,
} from '@server/usage/store/usage-limit-store';
import { isoSql } from './limit-sql';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const inList = (column: string) => `list_contains(string_split($1, ','), ${column}::VARCHAR)`;

/** The alerts of `workspaceIds` in the month starting at `monthStartMs`. */
export async function listAlerts(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
  monthStartMs: number,
): Promise<AlertRow[]> {
  if (workspaceIds.length === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT alert_id, workspace_id::VARCHAR, limit_type, threshold, used::DOUBLE,
       limit_value::DOUBLE, ${isoSql('crossed_at')}
     FROM usage_limit_alerts WHERE ${inList('workspace_id')} AND month = $2::DATE
     ORDER BY workspace_id, limit_type, threshold`,
    [workspaceIds.join(','), day(monthStartMs)],
  );
  return reader.getRowsJS().map((row) => ({
    alertId: String(row[0]),
    workspaceId: String(row[1]),
    limitType: row[2] as LimitType,
    monthStartMs,
    threshold: Number(row[3]),
    used: Number(row[4]),
    limitValue: Number(row[5]),
    crossedAt: new Date(String(row[6])),
  }));
}

/**
 * Records new alerts; the primary key refuses a second row for the same month and threshold.
 * Returns the rows recorded (their own id is the one stored).
 */
export async function insertAlerts(
  connection: DuckDBConnection,
  rows: readonly AlertRow[],
): Promise<AlertRow[]> {
  const recorded: AlertRow[] = [];
  for (const row of rows) {
    await connection.run(
      `INSERT INTO usage_limit_alerts VALUES ($1::UUID, $2, $3::DATE, $4, $5, $6::BIGINT,
         $7::BIGINT, $8::TIMESTAMP) ON CONFLICT DO NOTHING`,
      [
        row.workspaceId,
        row.limitType,
        day(row.monthStartMs),
        row.threshold,
        row.alertId,
        String(row.used),
        String(row.limitValue),
        row.crossedAt.toISOString(),
      ],
    );
    const stored = await connection.runAndReadAll(
      `SELECT alert_id FROM usage_limit_alerts WHERE workspace_id = $1::UUID AND limit_type = $2
         AND month = $3::DATE AND threshold = $4`,
      [row.workspaceId, row.limitType, day(row.monthStartMs), row.threshold],
    );
    if (stored.getRowsJS()[0]?.[0] === row.alertId) recorded.push(row);
  }
  return recorded;
}

export async function recordDelivery(
  connection: DuckDBConnection,
  alert: AlertRow | ScopedAlertRow,
  attempt: DeliveryAttempt,
): Promise<void> {
  await connection.run(
    `INSERT INTO usage_limit_deliveries VALUES ($1, $2::UUID, $3, $4, $5, $6::TIMESTAMP, $7, $8, $9)`,
    deliveryColumns(alert, attempt),
  );
}

/**
 * The latest delivery attempts of `workspaceIds`, newest first; a project, user or spend limit's
 * with the scope and target of its alert.
 */
export async function listDeliveries(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
  limit = 50,
): Promise<AlertDelivery[]> {
  if (workspaceIds.length === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT d.alert_id, d.workspace_id::VARCHAR, d.limit_type, d.threshold, d.attempt,
       ${isoSql('d.attempted_at')}, d.status, d.ok, d.error, s.scope, s.target_id::VARCHAR
     FROM usage_limit_deliveries d
     LEFT JOIN usage_scoped_limit_alerts s ON s.alert_id = d.alert_id
     WHERE ${inList('d.workspace_id')}
     ORDER BY d.attempted_at DESC, d.attempt DESC LIMIT ${Math.floor(limit)}`,
    [workspaceIds.join(',')],
  );
  return reader.getRowsJS().map((row) => ({
    alert_id: String(row[0]),
    workspace_id: String(row[1]),
    limit_type: row[2] as AlertedLimitType,
    threshold: Number(row[3]),
    attempt: Number(row[4]),
    attempted_at: String(row[5]),
    status: row[6] === null ? null : Number(row[6]),
    ok: row[7] === true,
    error: row[8] === null ? null : String(row[8]),
    ...(row[9] === null ? {} : { scope: row[9] as LimitScope, target_id: String(row[10]) }),
  }));
}

/** Root runs refused per (workspace, limit type) in `[fromMs, toMs)`, optionally of one project. */
export async function countRefusals(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
  range: { fromMs: number; toMs: number },
  project?: string,
): Promise<RefusalCount[]> {
  if (workspaceIds.length === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT workspace_id::VARCHAR, limit_type, sum(refused)::DOUBLE FROM usage_limit_refusals
     WHERE ${inList('workspace_id')} AND minute >= date_trunc('minute', $2::TIMESTAMP)
       AND minute < $3::TIMESTAMP AND ($4::VARCHAR IS NULL OR project_name = $4)
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [
      workspaceIds.join(','),
      new Date(range.fromMs).toISOString(),
      new Date(range.toMs).toISOString(),
      project ?? null,
    ],
  );
  return reader.getRowsJS().map(([workspaceId, type, refused]) => ({
    workspaceId: String(workspaceId),
    limitType: type as LimitType,
    refused: Number(refused),
  }));
}
