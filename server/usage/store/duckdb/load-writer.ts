import type { DuckDBConnection } from '@duckdb/node-api';
import type { KeyOwner } from '@server/usage/store/usage-store';

/** Reads the owner and home workspace of an authenticated key (see migration 5). */
export async function loadKeyOwner(
  connection: DuckDBConnection,
  keyHash: string,
): Promise<KeyOwner> {
  const reader = await connection.runAndReadAll(
    `SELECT o.user_id::VARCHAR, o.api_key_id::VARCHAR, k.workspace_id::VARCHAR
     FROM auth_key_owners o LEFT JOIN api_keys k ON k.id = o.api_key_id
     WHERE o.key_hash = $1`,
    [keyHash],
  );
  const [row] = reader.getRowsJS();
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { userId: text(row?.[0]), apiKeyId: text(row?.[1]), homeWorkspaceId: text(row?.[2]) };
}
