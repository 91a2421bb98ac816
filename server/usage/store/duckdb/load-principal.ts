import type { DuckDBConnection } from '@duckdb/node-api';
import type { Workspace } from '@contracts/usage/usage-schema';
import type { Principal } from '@server/usage/store/usage-store';

/**
 * Looks an API key up by its sha256 hash (keys are never stored or compared in clear).
 * Returns undefined for an unknown key.
 */
export async function loadPrincipal(
  connection: DuckDBConnection,
  keyHash: string,
): Promise<Principal | undefined> {
  const key = await connection.runAndReadAll(
    'SELECT permissions, label FROM auth_keys WHERE key_hash = $1',
    [keyHash],
  );
  const [row] = key.getRowsJS();
  if (!row) return undefined;
  const permissions = Array.isArray(row[0]) ? row[0].map(String) : [];
  const grants = await connection.runAndReadAll(
    `SELECT w.id::VARCHAR, w.display_name, w.is_personal, g.read_only, g.role_name,
       strftime(w.created_at, '%Y-%m-%dT%H:%M:%S.%g') || 'Z'
     FROM auth_key_workspaces g JOIN workspaces w ON w.id = g.workspace_id
     WHERE g.key_hash = $1 ORDER BY w.created_at, w.display_name, w.id`,
    [keyHash],
  );
  const workspaces = grants
    .getRowsJS()
    .map(([id, displayName, isPersonal, readOnly, roleName, createdAt]): Workspace => ({
      id: String(id),
      display_name: String(displayName),
      is_personal: isPersonal === true,
      is_deleted: false,
      read_only: readOnly === true,
      role_name: String(roleName),
      permissions:
        readOnly === true ? ['workspaces:read'] : ['workspaces:read', 'workspaces:manage'],
      created_at: String(createdAt),
    }));
  return { name: String(row[1]), permissions, workspaces };
}
