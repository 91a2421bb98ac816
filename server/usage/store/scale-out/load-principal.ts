import type { Pool } from 'pg';
import type { Workspace } from '@contracts/usage/usage-schema';
import type { Principal } from '@server/usage/store/usage-store';

interface GrantRow {
  id: string;
  display_name: Buffer;
  is_personal: boolean;
  read_only: boolean;
  role_name: string;
  created_at: string;
}

/**
 * A key's permissions and readable workspaces by its sha256 hash, in the DuckDB backend's order
 * (creation time, then name compared as bytes, then id). Undefined for an unknown key.
 */
export async function loadPrincipal(pool: Pool, keyHash: string): Promise<Principal | undefined> {
  const key = await pool.query<{ permissions: string[]; label: string }>(
    'SELECT permissions, label FROM usage.auth_keys WHERE key_hash = $1',
    [keyHash],
  );
  const [row] = key.rows;
  if (!row) return undefined;
  const grants = await pool.query<GrantRow>(
    `SELECT w.id::text, w.display_name, w.is_personal, g.read_only, g.role_name,
       to_char(w.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS') || 'Z' AS created_at
     FROM usage.auth_key_workspaces g JOIN usage.workspaces w ON w.id = g.workspace_id
     WHERE g.key_hash = $1 ORDER BY w.created_at, w.display_name, w.id`,
    [keyHash],
  );
  const workspaces = grants.rows.map((grant): Workspace => ({
    id: grant.id,
    display_name: grant.display_name.toString('utf8'),
    is_personal: grant.is_personal,
    is_deleted: false,
    read_only: grant.read_only,
    role_name: grant.role_name,
    permissions: grant.read_only ? ['workspaces:read'] : ['workspaces:read', 'workspaces:manage'],
    created_at: grant.created_at,
  }));
  return { name: row.label, permissions: row.permissions, workspaces };
}
