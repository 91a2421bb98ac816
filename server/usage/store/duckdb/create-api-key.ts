import type { DuckDBConnection } from '@duckdb/node-api';
import { hashApiKey } from '@server/usage/store/api-key-hash';
import { UsageInputError, type NewApiKey } from '@server/usage/store/usage-store';

/** The permissions an operator's console key needs: usage and the workspace list. */
const CONSOLE_KEY_PERMISSIONS = ['organization:read', 'workspaces:read'];
/** A writer also ingests traces (the permission authorize-writer.ts checks). */
const WRITER_PERMISSION = 'runs:create';

/**
 * Stores a new API key (as its sha256) with organization:read over the given workspaces (and,
 * for a writer, runs:create and write access to them), in one transaction. Throws a UsageInputError naming a workspace id the database does not hold. Returns the
 * number of workspaces granted.
 */
export async function createApiKey(connection: DuckDBConnection, newKey: NewApiKey) {
  const keyHash = hashApiKey(newKey.key);
  await connection.run('BEGIN TRANSACTION');
  try {
    const existing = await connection.runAndReadAll('SELECT id::VARCHAR FROM workspaces');
    const known = new Set(existing.getRowsJS().map(([id]) => String(id)));
    const unknown = newKey.workspaceIds.find((id) => !known.has(id.toLowerCase()));
    if (unknown !== undefined)
      throw new UsageInputError(`--workspace ${unknown}: no such workspace`);
    const granted = newKey.workspaceIds.length > 0 ? newKey.workspaceIds : [...known];
    await connection.run(`INSERT INTO auth_keys VALUES ($1, $2, string_split($3, ','))`, [
      keyHash,
      newKey.label,
      [...CONSOLE_KEY_PERMISSIONS, ...(newKey.writer ? [WRITER_PERMISSION] : [])].join(','),
    ]);
    for (const id of granted) {
      await connection.run(
        `INSERT INTO auth_key_workspaces VALUES ($1, $2::UUID, 'WORKSPACE_ADMIN', $3)`,
        [keyHash, id, !newKey.writer],
      );
    }
    await connection.run('COMMIT');
    return granted.length;
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
}
