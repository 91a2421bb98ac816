import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import {
  DEFAULT_ALERT_THRESHOLDS,
  LIMIT_TYPES,
  type LimitType,
  type OrgDefaultLimit,
} from '@contracts/usage/usage-limits';
import type {
  EffectiveLimit,
  LimitWrite,
  StoredLimit,
} from '@server/usage/store/usage-limit-store';

type Queryable = Pool | PoolClient;

/** A `timestamp(3)` column (UTC) as the wire's ISO string, as the DuckDB backend writes it. */
export const isoSql = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
export const NOW_UTC = "(now() AT TIME ZONE 'UTC')";

const LIMIT_COLUMNS = `id::text, tenant_id::text, limit_type, limit_value::float8 AS limit_value,
  alert_thresholds, ${isoSql('created_at')} AS created_at, ${isoSql('updated_at')} AS updated_at`;

interface LimitRow {
  id: string;
  tenant_id: string;
  limit_type: LimitType;
  limit_value: number;
  alert_thresholds: number[];
  created_at: string;
  updated_at: string;
}

const toLimit = (row: LimitRow): StoredLimit => ({
  ...row,
  limit_value: Number(row.limit_value),
  alert_thresholds: row.alert_thresholds.map(Number),
});

/** The own limits of `workspaceIds` (ordered by workspace, then type). */
export async function listLimits(
  db: Queryable,
  workspaceIds: readonly string[],
): Promise<StoredLimit[]> {
  if (workspaceIds.length === 0) return [];
  const result = await db.query<LimitRow>(
    `SELECT ${LIMIT_COLUMNS} FROM usage.usage_limits WHERE tenant_id = ANY($1::uuid[])
     ORDER BY tenant_id, limit_type`,
    [workspaceIds],
  );
  return result.rows.map(toLimit);
}

export async function findLimit(db: Queryable, id: string): Promise<StoredLimit | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const result = await db.query<LimitRow>(
    `SELECT ${LIMIT_COLUMNS} FROM usage.usage_limits WHERE id = $1::uuid`,
    [id],
  );
  const [row] = result.rows;
  return row ? toLimit(row) : undefined;
}

/** One limit per (workspace, type): an update keeps its id, creation time and (unless given) thresholds. */
export async function upsertLimit(db: Queryable, write: LimitWrite): Promise<StoredLimit> {
  const result = await db.query<LimitRow>(
    `INSERT INTO usage.usage_limits AS l
     VALUES ($1, $2, $3, $4, $5::integer[], ${NOW_UTC}, ${NOW_UTC})
     ON CONFLICT (tenant_id, limit_type) DO UPDATE SET limit_value = excluded.limit_value,
       alert_thresholds = CASE WHEN $6 THEN excluded.alert_thresholds ELSE l.alert_thresholds END,
       updated_at = excluded.updated_at
     RETURNING ${LIMIT_COLUMNS}`,
    [
      randomUUID(),
      write.tenantId,
      write.limitType,
      String(write.limitValue),
      write.thresholds ?? [...DEFAULT_ALERT_THRESHOLDS],
      write.thresholds !== undefined,
    ],
  );
  const [row] = result.rows;
  if (!row) throw new Error('The usage limit just written is missing.');
  return toLimit(row);
}

export async function deleteLimit(db: Queryable, id: string): Promise<void> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return;
  await db.query('DELETE FROM usage.usage_limits WHERE id = $1::uuid', [id]);
}

interface DefaultRow {
  limit_type: LimitType;
  limit_value: number;
  created_at: string;
  updated_at: string;
}

const DEFAULT_COLUMNS = `limit_type, limit_value::float8 AS limit_value,
  ${isoSql('created_at')} AS created_at, ${isoSql('updated_at')} AS updated_at`;

export async function listDefaults(db: Queryable): Promise<OrgDefaultLimit[]> {
  const result = await db.query<DefaultRow>(
    `SELECT ${DEFAULT_COLUMNS} FROM usage.usage_limit_defaults ORDER BY limit_type`,
  );
  return result.rows.map((row) => ({ ...row, limit_value: Number(row.limit_value) }));
}

export async function putDefault(
  db: Queryable,
  limitType: LimitType,
  limitValue: number,
): Promise<OrgDefaultLimit> {
  const result = await db.query<DefaultRow>(
    `INSERT INTO usage.usage_limit_defaults VALUES ($1, $2, ${NOW_UTC}, ${NOW_UTC})
     ON CONFLICT (limit_type) DO UPDATE SET limit_value = excluded.limit_value,
       updated_at = excluded.updated_at
     RETURNING ${DEFAULT_COLUMNS}`,
    [limitType, String(limitValue)],
  );
  const [row] = result.rows;
  if (!row) throw new Error('The org default just written is missing.');
  return { ...row, limit_value: Number(row.limit_value) };
}

interface EffectiveRow {
  workspace_id: string;
  limit_type: LimitType;
  limit_value: number;
  thresholds: number[];
  source: 'own' | 'org_default';
}

/**
 * Every limit in force per workspace (workspaces without any are absent), of `workspaceIds`
 * only when given: a workspace's own limit, else an org default set before the workspace was
 * created (as on DuckDB, `effective-limits.ts`).
 */
export async function loadEffectiveLimits(
  db: Queryable,
  workspaceIds?: readonly string[],
): Promise<Map<string, EffectiveLimit[]>> {
  const types = LIMIT_TYPES.map((type) => `('${type}')`).join(', ');
  const result = await db.query<EffectiveRow>(
    `SELECT w.id::text AS workspace_id, t.limit_type,
       coalesce(l.limit_value, d.limit_value)::float8 AS limit_value,
       coalesce(l.alert_thresholds, $2::integer[]) AS thresholds,
       CASE WHEN l.id IS NULL THEN 'org_default' ELSE 'own' END AS source
     FROM usage.workspaces w CROSS JOIN (VALUES ${types}) t (limit_type)
     LEFT JOIN usage.usage_limits l ON l.tenant_id = w.id AND l.limit_type = t.limit_type
     LEFT JOIN usage.usage_limit_defaults d
       ON d.limit_type = t.limit_type AND w.created_at >= d.created_at
     WHERE (l.id IS NOT NULL OR d.limit_type IS NOT NULL)
       AND ($1::uuid[] IS NULL OR w.id = ANY($1::uuid[]))
     ORDER BY 1, 2`,
    [workspaceIds ?? null, [...DEFAULT_ALERT_THRESHOLDS]],
  );
  const limits = new Map<string, EffectiveLimit[]>();
  for (const row of result.rows) {
    const list = limits.get(row.workspace_id) ?? [];
    list.push({
      workspaceId: row.workspace_id,
      limitType: row.limit_type,
      limitValue: Number(row.limit_value),
      thresholds: row.thresholds.map(Number),
      source: row.source,
    });
    limits.set(row.workspace_id, list);
  }
  return limits;
}
