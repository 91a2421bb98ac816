import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  DEFAULT_ALERT_THRESHOLDS,
  type LimitType,
  type OrgDefaultLimit,
} from '@contracts/usage/usage-limits';
import type { LimitWrite, StoredLimit } from '@server/usage/store/usage-limit-store';

export const isoSql = (column: string) => `strftime(${column}, '%Y-%m-%dT%H:%M:%S.%g') || 'Z'`;
const LIMIT_COLUMNS = `id::VARCHAR, tenant_id::VARCHAR, limit_type, limit_value::DOUBLE,
  alert_thresholds, ${isoSql('created_at')}, ${isoSql('updated_at')}`;

function toLimit(row: unknown[]): StoredLimit {
  const [id, tenantId, type, value, thresholds, createdAt, updatedAt] = row;
  return {
    id: String(id),
    tenant_id: String(tenantId),
    limit_type: type as LimitType,
    limit_value: Number(value),
    alert_thresholds: Array.isArray(thresholds) ? thresholds.map(Number) : [],
    created_at: String(createdAt),
    updated_at: String(updatedAt),
  };
}

/** The own limits of `workspaceIds` (ordered by workspace, then type). */
export async function listLimits(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
): Promise<StoredLimit[]> {
  if (workspaceIds.length === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT ${LIMIT_COLUMNS} FROM usage_limits
     WHERE list_contains(string_split($1, ','), tenant_id::VARCHAR)
     ORDER BY tenant_id, limit_type`,
    [workspaceIds.join(',')],
  );
  return reader.getRowsJS().map(toLimit);
}

export async function findLimit(
  connection: DuckDBConnection,
  id: string,
): Promise<StoredLimit | undefined> {
  const reader = await connection.runAndReadAll(
    `SELECT ${LIMIT_COLUMNS} FROM usage_limits WHERE id = $1::UUID`,
    [id],
  );
  const [row] = reader.getRowsJS();
  return row ? toLimit(row) : undefined;
}

/**
 * Creates or updates the workspace's limit of this type (one per type, as LangSmith keeps
 * them): an update keeps the id and `created_at`, and the thresholds unless new ones are given.
 */
export async function upsertLimit(
  connection: DuckDBConnection,
  write: LimitWrite,
): Promise<StoredLimit> {
  const thresholds = write.thresholds ?? [...DEFAULT_ALERT_THRESHOLDS];
  await connection.run(
    `INSERT INTO usage_limits VALUES ($1::UUID, $2::UUID, $3, $4::BIGINT,
       string_split($5, ',')::INTEGER[], now()::TIMESTAMP, now()::TIMESTAMP)
     ON CONFLICT (tenant_id, limit_type) DO UPDATE SET limit_value = EXCLUDED.limit_value,
       alert_thresholds = CASE WHEN $6 THEN EXCLUDED.alert_thresholds
         ELSE usage_limits.alert_thresholds END,
       updated_at = EXCLUDED.updated_at`,
    [
      randomUUID(),
      write.tenantId,
      write.limitType,
      String(write.limitValue),
      thresholds.join(','),
      write.thresholds !== undefined,
    ],
  );
  const reader = await connection.runAndReadAll(
    `SELECT ${LIMIT_COLUMNS} FROM usage_limits WHERE tenant_id = $1::UUID AND limit_type = $2`,
    [write.tenantId, write.limitType],
  );
  const [row] = reader.getRowsJS();
  if (!row) throw new Error('The usage limit just written is missing.');
  return toLimit(row);
}

export async function deleteLimit(connection: DuckDBConnection, id: string): Promise<void> {
  await connection.run('DELETE FROM usage_limits WHERE id = $1::UUID', [id]);
}

export async function listDefaults(connection: DuckDBConnection): Promise<OrgDefaultLimit[]> {
  const reader = await connection.runAndReadAll(
    `SELECT limit_type, limit_value::DOUBLE, ${isoSql('created_at')}, ${isoSql('updated_at')}
     FROM usage_limit_defaults ORDER BY limit_type`,
  );
  return reader.getRowsJS().map(([type, value, createdAt, updatedAt]) => ({
    limit_type: type as LimitType,
    limit_value: Number(value),
    created_at: String(createdAt),
    updated_at: String(updatedAt),
  }));
}

export async function putDefault(
  connection: DuckDBConnection,
  limitType: LimitType,
  limitValue: number,
): Promise<OrgDefaultLimit> {
  await connection.run(
    `INSERT INTO usage_limit_defaults VALUES ($1, $2::BIGINT, now()::TIMESTAMP, now()::TIMESTAMP)
     ON CONFLICT (limit_type) DO UPDATE SET limit_value = EXCLUDED.limit_value,
       updated_at = EXCLUDED.updated_at`,
    [limitType, String(limitValue)],
  );
  const defaults = await listDefaults(connection);
  const stored = defaults.find((entry) => entry.limit_type === limitType);
  if (!stored) throw new Error('The org default just written is missing.');
  return stored;
}
