import type { Pool } from 'pg';
import type { KeyOwner } from '@server/usage/store/usage-store';

/** The owner and home workspace of a key (all null for a key without a recorded owner). */
export async function loadKeyOwner(pool: Pool, keyHash: string): Promise<KeyOwner> {
  const result = await pool.query<{
    user_id: string;
    api_key_id: string;
    workspace_id: string | null;
  }>(
    `SELECT o.user_id::text, o.api_key_id::text, k.workspace_id::text
     FROM usage.auth_key_owners o LEFT JOIN usage.api_keys k ON k.id = o.api_key_id
     WHERE o.key_hash = $1`,
    [keyHash],
  );
  const [row] = result.rows;
  return {
    userId: row?.user_id ?? null,
    apiKeyId: row?.api_key_id ?? null,
    homeWorkspaceId: row?.workspace_id ?? null,
  };
}
