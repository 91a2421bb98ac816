import type { DuckDBConnection } from '@duckdb/node-api';
import type { LimitScope } from '@contracts/usage/usage-limits';
import type { ScopedAlertRow, ScopedRefusalCount } from '@server/usage/store/usage-limit-store';
import { isoSql } from './limit-sql';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The alerts of the project, user and spend limits of `workspaceIds` in the month. */
export async function listScopedAlerts(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
  monthStartMs: number,
): Promise<ScopedAlertRow[]> {
  if (workspaceIds.length === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT alert_id, workspace_id::VARCHAR, scope, target_id::VARCHAR, limit_type, threshold,
       used, limit_value, ${isoSql('crossed_at')}
     FROM usage_scoped_limit_alerts
     WHERE list_contains(string_split($1, ','), workspace_id::VARCHAR) AND month = $2::DATE
     ORDER BY workspace_id, scope, target_id, limit_type, threshold`,
    [workspaceIds.join(','), day(monthStartMs)],
  );
  return reader.getRowsJS().map((row) => ({
    alertId: String(row[0]),
    workspaceId: String(row[1]),
    scope: row[2] as LimitScope,
    targetId: String(row[3]),
    limitType: row[4] === 'monthly_spend' ? 'monthly_spend' : 'monthly_traces',
    monthStartMs,
    threshold: Number(row[5]),
    used: Number(row[6]),
    limitValue: Number(row[7]),
    crossedAt: new Date(String(row[8])),
  }));
}

/**
 * Records new alerts; the primary key refuses a second row for the same limit, month and
 * threshold. Returns the rows recorded (their own id is the one stored).
 */
export async function insertScopedAlerts(
  connection: DuckDBConnection,
  rows: readonly ScopedAlertRow[],
): Promise<ScopedAlertRow[]> {
  const recorded: ScopedAlertRow[] = [];
  for (const row of rows) {
    const key = [
      row.workspaceId,
      row.scope,
      row.targetId,
      row.limitType,
      day(row.monthStartMs),
      row.threshold,
    ];
    await connection.run(
      `INSERT INTO usage_scoped_limit_alerts VALUES ($1::UUID, $2, $3::UUID, $4, $5::DATE, $6, $7,
         $8::DOUBLE, $9::DOUBLE, $10::TIMESTAMP) ON CONFLICT DO NOTHING`,
      [...key, row.alertId, row.used, row.limitValue, row.crossedAt.toISOString()],
    );
    const stored = await connection.runAndReadAll(
      `SELECT alert_id FROM usage_scoped_limit_alerts WHERE workspace_id = $1::UUID
         AND scope = $2 AND target_id = $3::UUID AND limit_type = $4 AND month = $5::DATE
         AND threshold = $6`,
      key,
    );
    if (stored.getRowsJS()[0]?.[0] === row.alertId) recorded.push(row);
  }
  return recorded;
}

/**
 * Root runs refused per project, user and spend limit in `[fromMs, toMs)`; refusals by a
 * workspace's own limits, and older rows that do not name their refusing limit, are left out.
 */
export async function countScopedRefusals(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
  range: { fromMs: number; toMs: number },
): Promise<ScopedRefusalCount[]> {
  if (workspaceIds.length === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT workspace_id::VARCHAR, scope, target_id::VARCHAR, spend, sum(refused)::DOUBLE
     FROM usage_limit_refusals
     WHERE list_contains(string_split($1, ','), workspace_id::VARCHAR)
       AND minute >= date_trunc('minute', $2::TIMESTAMP) AND minute < $3::TIMESTAMP
       AND target_id IS NOT NULL AND (scope IN ('project', 'user') OR spend)
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    [
      workspaceIds.join(','),
      new Date(range.fromMs).toISOString(),
      new Date(range.toMs).toISOString(),
    ],
  );
  return reader.getRowsJS().map((row) => ({
    workspaceId: String(row[0]),
    scope: row[1] as LimitScope,
    targetId: String(row[2]),
    limitType: row[3] === true ? 'monthly_spend' : 'monthly_traces',
    refused: Number(row[4]),
  }));
}
