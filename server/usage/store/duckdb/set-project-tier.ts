import type { DuckDBConnection } from '@duckdb/node-api';
import type { TraceTier } from '@contracts/usage/usage-schema';
import { ensureProjects } from './ensure-projects';

/**
 * Sets the default retention tier of project `name` in `workspaceId` (created when missing,
 * with the stable id trace ingestion would give it), in one transaction. Only traces ingested
 * afterwards take it. Returns the project's id.
 */
export async function setProjectTier(
  connection: DuckDBConnection,
  workspaceId: string,
  name: string,
  tier: TraceTier,
): Promise<string> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const idOf = await ensureProjects(connection, [{ workspaceId, name }], new Map(), new Map());
    const id = idOf(workspaceId, name);
    await connection.run('UPDATE projects SET trace_tier = $1 WHERE id = $2::UUID', [tier, id]);
    await connection.run('COMMIT');
    return id;
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
