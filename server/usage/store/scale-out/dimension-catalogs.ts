import type { Pool } from 'pg';
import type { GroupBy } from '@contracts/usage/usage-schema';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';

/** Per group_by: its Postgres table and label column. */
export const PG_DIMENSIONS = {
  workspace: { table: 'usage.workspaces', label: 'display_name' },
  project: { table: 'usage.projects', label: 'name' },
  user: { table: 'usage.users', label: 'email' },
  api_key: { table: 'usage.api_keys', label: 'short_key' },
} as const satisfies Record<GroupBy, { table: string; label: string }>;

/** Count and digest of every row: changes when a row is added, removed or renamed. */
const fingerprintSql = (table: string, columns: string) =>
  `(SELECT count(*)::text || ':' || coalesce(md5(string_agg(${columns}, ',' ORDER BY id)), '')
    FROM ${table})`;

function buildFingerprintSql(groupBy: GroupBy): string {
  const workspaces = fingerprintSql(
    'usage.workspaces',
    "id::text || '|' || encode(display_name, 'hex')",
  );
  if (groupBy === 'workspace') return `SELECT ${workspaces} AS print`;
  if (groupBy === 'project') {
    const projects = fingerprintSql(
      'usage.projects',
      "id::text || '|' || workspace_id::text || '|' || encode(name, 'hex')",
    );
    return `SELECT ${projects} || '/' || ${workspaces} AS print`;
  }
  const { table, label } = PG_DIMENSIONS[groupBy];
  const labelled = `id::text || coalesce('|' || encode(${label}, 'hex'), '')`;
  return `SELECT ${fingerprintSql(table, labelled)} AS print`;
}

async function readCatalog(pool: Pool, groupBy: GroupBy): Promise<DimensionCatalog> {
  const { table, label } = PG_DIMENSIONS[groupBy];
  // bytea compares as bytes, as DuckDB sorts text, so both backends list values alike.
  const rows = await pool.query<{ id: string; label: Buffer | null }>(
    `SELECT id::text AS id, ${label} AS label FROM ${table} ORDER BY ${label} NULLS LAST, id`,
  );
  const catalog: DimensionCatalog = {
    groupBy,
    ids: rows.rows.map((row) => row.id),
    labels: rows.rows.map((row) => row.label?.toString('utf8') ?? null),
  };
  if (groupBy !== 'project') return catalog;
  const parents = await pool.query<{ project: string; id: string; name: Buffer }>(
    `SELECT p.id::text AS project, w.id::text AS id, w.display_name AS name
     FROM usage.projects p JOIN usage.workspaces w ON w.id = p.workspace_id`,
  );
  return {
    ...catalog,
    workspaces: new Map(
      parents.rows.map((row) => [row.project, { id: row.id, name: row.name.toString('utf8') }]),
    ),
  };
}

export type DimensionCatalogs = (groupBy: GroupBy) => Promise<DimensionCatalog>;

/**
 * The dimension tables kept between requests: each call compares a fingerprint of the table (one
 * aggregate, a few ms for 5,000 users) and reads the table again only when it changed, so the
 * next query sees a rename made through any replica.
 */
export function createDimensionCatalogs(pool: Pool): DimensionCatalogs {
  const cached = new Map<GroupBy, { fingerprint: string; catalog: DimensionCatalog }>();
  return async (groupBy) => {
    const result = await pool.query<{ print: string }>(buildFingerprintSql(groupBy));
    const fingerprint = result.rows[0]?.print ?? '';
    const hit = cached.get(groupBy);
    if (hit?.fingerprint === fingerprint) return hit.catalog;
    const catalog = await readCatalog(pool, groupBy);
    cached.set(groupBy, { fingerprint, catalog });
    return catalog;
  };
}
