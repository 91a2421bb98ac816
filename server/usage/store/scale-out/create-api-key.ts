import type { Pool } from 'pg';
import { inTransaction } from '@server/db/postgres';
import { hashApiKey } from '@server/usage/store/api-key-hash';
import { UsageInputError, type NewApiKey } from '@server/usage/store/usage-store';

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
