import type { Pool } from 'pg';
import type { GroupBy } from '@contracts/usage/usage-schema';
import type { DimensionRow, NewWorkspace } from '@server/usage/store/usage-store';
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
