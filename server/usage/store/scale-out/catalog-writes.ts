import { inTransaction } from '@server/db/postgres';
import type { Pool, PoolClient } from 'pg';
import { TRACE_TIERS, type GroupBy, type TraceTier } from '@contracts/usage/usage-schema';
import { stableUuid } from '@server/usage/seed/stable-uuid';
import { hashApiKey } from '@server/usage/store/api-key-hash';
import {
  UsageInputError,
  type DimensionRow,
  type NewApiKey,
  type NewWorkspace,
} from '@server/usage/store/usage-store';
import { PG_DIMENSIONS } from './dimension-catalogs';

/** A label as stored: its UTF-8 bytes (`bytea`, see the migrations). */
export const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** Adds or renames one dimension value. */
export async function putDimension(pool: Pool, row: DimensionRow): Promise<void> {
  switch (row.groupBy) {
    case 'workspace':
      await pool.query(
        `INSERT INTO usage.workspaces (id, display_name, created_at)
         VALUES ($1, $2, now() AT TIME ZONE 'UTC')
         ON CONFLICT (id) DO UPDATE SET display_name = excluded.display_name`,
        [row.id, utf8(row.label)],
      );
      return;
    case 'project':
      await pool.query(
        `INSERT INTO usage.projects VALUES ($1, $2, $3) ON CONFLICT (id)
         DO UPDATE SET name = excluded.name, workspace_id = excluded.workspace_id`,
        [row.id, row.workspaceId, utf8(row.label)],
      );
      return;
    case 'user':
      await pool.query(
        `INSERT INTO usage.users VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET email = excluded.email`,
        [row.id, row.label === null ? null : utf8(row.label)],
      );
      return;
    case 'api_key':
      await pool.query(
        `INSERT INTO usage.api_keys VALUES ($1, $2, $3, '') ON CONFLICT (id)
         DO UPDATE SET short_key = excluded.short_key, workspace_id = excluded.workspace_id`,
        [row.id, row.workspaceId, utf8(row.label)],
      );
  }
}

export async function removeDimension(pool: Pool, groupBy: GroupBy, id: string): Promise<void> {
  await pool.query(`DELETE FROM ${PG_DIMENSIONS[groupBy].table} WHERE id = $1`, [id]);
}

export async function createWorkspace(pool: Pool, workspace: NewWorkspace): Promise<void> {
  await pool.query(
    `INSERT INTO usage.workspaces (id, display_name, created_at)
     VALUES ($1, $2, $3::timestamptz AT TIME ZONE 'UTC')`,
    [workspace.id, utf8(workspace.displayName), workspace.createdAt.toISOString()],
  );
}

/** The permissions an operator's console key needs: usage and the workspace list. */
const CONSOLE_KEY_PERMISSIONS = ['organization:read', 'workspaces:read'];
/** A writer also ingests traces (the permission authorize-writer.ts checks). */
const WRITER_PERMISSION = 'runs:create';

/**
 * Stores a console key (as its sha256) over the given workspaces, or all, in one transaction; a
 * writer also gets runs:create and write access to them.
 */
export async function createApiKey(pool: Pool, newKey: NewApiKey): Promise<number> {
  return inTransaction(pool, async (client) => {
    const existing = await client.query<{ id: string }>('SELECT id::text FROM usage.workspaces');
    const known = new Set(existing.rows.map((row) => row.id));
    const unknown = newKey.workspaceIds.find((id) => !known.has(id.toLowerCase()));
    if (unknown !== undefined)
      throw new UsageInputError(`--workspace ${unknown}: no such workspace`);
    const granted = newKey.workspaceIds.length > 0 ? newKey.workspaceIds : [...known];
    const keyHash = hashApiKey(newKey.key);
    await client.query('INSERT INTO usage.auth_keys VALUES ($1, $2, $3)', [
      keyHash,
      newKey.label,
      [...CONSOLE_KEY_PERMISSIONS, ...(newKey.writer ? [WRITER_PERMISSION] : [])],
    ]);
    await client.query(
      `INSERT INTO usage.auth_key_workspaces
         SELECT $1, unnest($2::uuid[]), 'WORKSPACE_ADMIN', $3`,
      [keyHash, granted, !newKey.writer],
    );
    return granted.length;
  });
}

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

/**
 * Sets the default retention tier of project `name` (created when missing); traces ingested
 * afterwards take it, stored ones keep theirs. Returns the project's id.
 */
export async function setProjectTier(
  pool: Pool,
  workspaceId: string,
  name: string,
  tier: TraceTier,
): Promise<string> {
  const id = (await ensureProjectRows(pool, workspaceId, [name])).get(name)?.id;
  if (id === undefined) throw new Error(`project ${name} was not created`);
  await pool.query('UPDATE usage.projects SET trace_tier = $1 WHERE id = $2', [tier, id]);
  return id;
}

/** The default tier of the project with id `projectId` (null: unset or unknown). */
export async function projectTier(pool: Pool, projectId: string): Promise<TraceTier | null> {
  const result = await pool.query<{ tier: string | null }>(
    'SELECT trace_tier AS tier FROM usage.projects WHERE id = $1',
    [projectId],
  );
  return asTier(result.rows[0]?.tier ?? null);
}
