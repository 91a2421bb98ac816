import type { Pool, PoolClient } from 'pg';
import { TRACE_TIERS, type TraceTier } from '@contracts/usage/usage-schema';
import { stableUuid } from '@server/usage/seed/stable-uuid';
import { utf8 } from './dimension-writes';

/** A project named by runs: its id and its default retention tier (null: short-lived). */
export interface ProjectRow {
  id: string;
  tier: TraceTier | null;
}

const asTier = (value: string | null): TraceTier | null =>
  TRACE_TIERS.find((tier) => tier === value) ?? null;

/**
 * Projects named by runs in one workspace, with their tier: a missing name is created with its
 * stable id (replicas creating it at once insert the same id; the conflict is ignored). Seeded
 * names may repeat inside a workspace: the smallest id is the stable choice, as in the DuckDB
 * backend.
 */
export async function ensureProjectRows(
  pool: Pool | PoolClient,
  workspaceId: string,
  names: readonly string[],
): Promise<Map<string, ProjectRow>> {
  const distinct = [...new Set(names)];
  if (distinct.length === 0) return new Map();
  const ids = distinct.map((name) => stableUuid('ingested-project', workspaceId, name));
  await pool.query(
    `INSERT INTO usage.projects (id, workspace_id, name)
     SELECT w.id, $1, w.name FROM unnest($2::uuid[], $3::bytea[]) AS w (id, name)
     WHERE NOT EXISTS (SELECT 1 FROM usage.projects p WHERE p.workspace_id = $1 AND p.name = w.name)
     ON CONFLICT (id) DO NOTHING`,
    [workspaceId, ids, distinct.map(utf8)],
  );
  const found = await pool.query<{ name: Buffer; id: string; tier: string | null }>(
    `SELECT DISTINCT ON (name) name, id::text AS id, trace_tier AS tier FROM usage.projects
     WHERE workspace_id = $1 AND name = ANY($2::bytea[]) ORDER BY name, id::text`,
    [workspaceId, distinct.map(utf8)],
  );
  return new Map(
    found.rows.map((row) => [row.name.toString('utf8'), { id: row.id, tier: asTier(row.tier) }]),
  );
}

/** Ids of projects named by runs in one workspace (see `ensureProjectRows`). */
export async function ensureProjects(
  pool: Pool,
  workspaceId: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  const rows = await ensureProjectRows(pool, workspaceId, names);
  return new Map([...rows].map(([name, row]) => [name, row.id]));
}

/** The default tier of the project with id `projectId` (null: unset or unknown). */
export async function projectTier(pool: Pool, projectId: string): Promise<TraceTier | null> {
  const result = await pool.query<{ tier: string | null }>(
    'SELECT trace_tier AS tier FROM usage.projects WHERE id = $1',
    [projectId],
  );
  return asTier(result.rows[0]?.tier ?? null);
}
