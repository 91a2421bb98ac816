import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { inTransaction } from '@server/db/postgres';
import { hashApiKey } from '@server/usage/store/api-key-hash';
import {
  newKeyRole,
  ROLE_PERMISSIONS,
  roleWorkspaceGrant,
  shortKey,
} from '@server/usage/store/key-roles';
import { UsageInputError, type NewApiKey } from '@server/usage/store/usage-store';

/**
 * Stores a key (as its sha256) with its role's permissions over the given workspaces, or all, and
 * its row in the key list, in one transaction.
 */
export async function createApiKey(pool: Pool, newKey: NewApiKey): Promise<number> {
  const role = newKeyRole(newKey);
  const grant = roleWorkspaceGrant(role);
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
      [...ROLE_PERMISSIONS[role]],
    ]);
    await client.query(
      `INSERT INTO usage.auth_key_workspaces
         SELECT $1, unnest($2::uuid[]), $3, $4`,
      [keyHash, granted, grant.roleName, grant.readOnly],
    );
    await client.query(`INSERT INTO usage.api_key_roles VALUES ($1, $2, $3, $4, $5, $6, NULL)`, [
      newKey.id ?? randomUUID(),
      keyHash,
      shortKey(newKey.key),
      newKey.label,
      role,
      new Date().toISOString().replace('Z', ''),
    ]);
    return granted.length;
  });
}
