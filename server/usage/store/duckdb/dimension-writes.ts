import type { DuckDBConnection } from '@duckdb/node-api';
import type { GroupBy } from '@contracts/usage/usage-schema';
import type { DimensionRow, NewWorkspace } from '@server/usage/store/usage-store';
import { DIMENSIONS } from './dimension-sql';

/** Adds or renames one dimension value (the catalog cache sees it by its fingerprint). */
export async function putDimension(connection: DuckDBConnection, row: DimensionRow) {
  switch (row.groupBy) {
    case 'workspace':
      await connection.run(
        `INSERT INTO workspaces VALUES ($1::UUID, $2, false, current_timestamp::TIMESTAMP)
         ON CONFLICT (id) DO UPDATE SET display_name = excluded.display_name`,
        [row.id, row.label],
      );
      return;
    case 'project':
      await connection.run(
        `INSERT INTO projects (id, workspace_id, name) VALUES ($1::UUID, $2::UUID, $3)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, workspace_id = excluded.workspace_id`,
        [row.id, row.workspaceId, row.label],
      );
      return;
    case 'user':
      await connection.run(
        `INSERT INTO users VALUES ($1::UUID, $2) ON CONFLICT (id) DO UPDATE SET email = excluded.email`,
        [row.id, row.label],
      );
      return;
    case 'api_key':
      await connection.run(
        `INSERT INTO api_keys VALUES ($1::UUID, $2::UUID, $3, '')
         ON CONFLICT (id) DO UPDATE SET short_key = excluded.short_key,
           workspace_id = excluded.workspace_id`,
        [row.id, row.workspaceId, row.label],
      );
  }
}

export async function removeDimension(
  connection: DuckDBConnection,
  groupBy: GroupBy,
  id: string,
): Promise<void> {
  await connection.run(`DELETE FROM ${DIMENSIONS[groupBy].table} WHERE id = $1::UUID`, [id]);
}

export async function createWorkspace(
  connection: DuckDBConnection,
  workspace: NewWorkspace,
): Promise<void> {
  await connection.run(`INSERT INTO workspaces VALUES ($1::UUID, $2, false, $3::TIMESTAMP)`, [
    workspace.id,
    workspace.displayName,
    workspace.createdAt.toISOString(),
  ]);
}
