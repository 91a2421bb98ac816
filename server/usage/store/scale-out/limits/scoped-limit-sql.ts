import type { Pool, PoolClient } from 'pg';
import { SPEND_LIMIT_TYPE, type LimitScope, type ScopedLimit } from '@contracts/usage/usage-limits';
import { scopedLimitParams } from '@server/usage/limits/scoped-limit-params';
import type { ScopedLimitWrite } from '@server/usage/store/usage-limit-store';
import { isoSql, NOW_UTC } from './limit-sql';

type Queryable = Pool | PoolClient;

const COLUMNS = `id::text, tenant_id::text, scope, target_id::text, limit_type, limit_value,
  extended_share, derived_traces::float8 AS derived_traces,
  derived_longlived::float8 AS derived_longlived, alert_thresholds,
  ${isoSql('created_at')} AS created_at, ${isoSql('updated_at')} AS updated_at`;

interface ScopedRow {
  id: string;
  tenant_id: string;
  scope: LimitScope;
  target_id: string;
  limit_type: string;
  limit_value: number;
  extended_share: number | null;
  derived_traces: number | null;
  derived_longlived: number | null;
  alert_thresholds: number[];
  created_at: string;
  updated_at: string;
}

/** A row as the wire shape, in the DuckDB backend's key order (bodies compare byte for byte). */
const toScoped = (row: ScopedRow): ScopedLimit => ({
  id: row.id,
  tenant_id: row.tenant_id,
  scope: row.scope,
  target_id: row.target_id,
  limit_type: row.limit_type === SPEND_LIMIT_TYPE ? SPEND_LIMIT_TYPE : 'monthly_traces',
  limit_value: Number(row.limit_value),
  extended_share: row.extended_share === null ? null : Number(row.extended_share),
  derived:
    row.derived_traces === null
      ? null
      : {
          monthly_traces: Number(row.derived_traces),
          monthly_longlived_traces: Number(row.derived_longlived),
        },
  alert_thresholds: row.alert_thresholds.map(Number),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const isUuid = (id: string) => /^[0-9a-f-]{36}$/i.test(id);

/**
 * The project, user and spend limits of `workspaceIds` (every workspace's for `all`), by
 * workspace, scope, target and type.
 */
export async function listScopedLimits(
  db: Queryable,
  workspaceIds: readonly string[] | 'all',
): Promise<ScopedLimit[]> {
  if (workspaceIds !== 'all' && workspaceIds.length === 0) return [];
  const result = await db.query<ScopedRow>(
    `SELECT ${COLUMNS} FROM usage.usage_scoped_limits
     WHERE $1::uuid[] IS NULL OR tenant_id = ANY($1::uuid[])
     ORDER BY tenant_id, scope, target_id, limit_type`,
    [workspaceIds === 'all' ? null : workspaceIds],
  );
  return result.rows.map(toScoped);
}

export async function findScopedLimit(db: Queryable, id: string): Promise<ScopedLimit | undefined> {
  if (!isUuid(id)) return undefined;
  const result = await db.query<ScopedRow>(
    `SELECT ${COLUMNS} FROM usage.usage_scoped_limits WHERE id = $1::uuid`,
    [id],
  );
  const [row] = result.rows;
  return row ? toScoped(row) : undefined;
}

/** Creates or updates one limit: an update keeps the id, `created_at` and unchanged thresholds. */
export async function upsertScopedLimit(
  db: Queryable,
  write: ScopedLimitWrite,
): Promise<ScopedLimit> {
  const result = await db.query<ScopedRow>(
    `INSERT INTO usage.usage_scoped_limits AS l
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::integer[], ${NOW_UTC}, ${NOW_UTC})
     ON CONFLICT (tenant_id, scope, target_id, limit_type) DO UPDATE SET
       limit_value = excluded.limit_value, extended_share = excluded.extended_share,
       derived_traces = excluded.derived_traces, derived_longlived = excluded.derived_longlived,
       alert_thresholds = CASE WHEN $11 THEN excluded.alert_thresholds ELSE l.alert_thresholds END,
       updated_at = excluded.updated_at
     RETURNING ${COLUMNS}`,
    [...scopedLimitParams(write)],
  );
  const [row] = result.rows;
  if (!row) throw new Error('The usage limit just written is missing.');
  return toScoped(row);
}

export async function deleteScopedLimit(db: Queryable, id: string): Promise<void> {
  if (!isUuid(id)) return;
  await db.query('DELETE FROM usage.usage_scoped_limits WHERE id = $1::uuid', [id]);
}
