import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { hashApiKey } from '@server/usage/store/api-key-hash';
import {
  newKeyRole,
  ROLE_PERMISSIONS,
  roleWorkspaceGrant,
  shortKey,
} from '@server/usage/store/key-roles';
import { UsageInputError, type NewApiKey } from '@server/usage/store/usage-store';

/**
 * Stores a new API key (as its sha256) with its role's permissions over the given workspaces, and
 * its row in the key list, in one transaction. Throws a UsageInputError naming a workspace id the
 * database does not hold. Returns the number of workspaces granted.
 */
export async function createApiKey(connection: DuckDBConnection, newKey: NewApiKey) {
  const keyHash = hashApiKey(newKey.key);
  const role = newKeyRole(newKey);
  const grant = roleWorkspaceGrant(role);
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
      ROLE_PERMISSIONS[role].join(','),
    ]);
    for (const id of granted) {
      await connection.run(`INSERT INTO auth_key_workspaces VALUES ($1, $2::UUID, $3, $4)`, [
        keyHash,
        id,
        grant.roleName,
        grant.readOnly,
      ]);
    }
    await connection.run(
      `INSERT INTO api_key_roles VALUES ($1::UUID, $2, $3, $4, $5, $6::TIMESTAMP, NULL)`,
      [
        newKey.id ?? randomUUID(),
        keyHash,
        shortKey(newKey.key),
        newKey.label,
        role,
        new Date().toISOString().replace('Z', ''),
      ],
    );
    await connection.run('COMMIT');
    return granted.length;
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
}
