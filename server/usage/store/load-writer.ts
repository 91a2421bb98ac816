import type { DuckDBConnection } from '@duckdb/node-api';
import { hashApiKey } from './api-key-hash';
import type { Principal } from './load-principal';

/** Who ingests: the key's principal plus the dimensions its traces are billed to. */
export interface Writer {
  principal: Principal;
  /** Owner of the key (the trace's user); null for a key without a recorded owner. */
  userId: string | null;
  /** The key's own `api_keys` row (the trace's API key), or null. */
  apiKeyId: string | null;
  /** The workspace of that row: where traces go when the request names none. */
  homeWorkspaceId: string | null;
}

/** Reads the owner and home workspace of an authenticated key (see migration 5). */
export async function loadKeyOwner(
  connection: DuckDBConnection,
  apiKey: string,
): Promise<Omit<Writer, 'principal'>> {
  const reader = await connection.runAndReadAll(
    `SELECT o.user_id::VARCHAR, o.api_key_id::VARCHAR, k.workspace_id::VARCHAR
     FROM auth_key_owners o LEFT JOIN api_keys k ON k.id = o.api_key_id
     WHERE o.key_hash = $1`,
    [hashApiKey(apiKey)],
  );
  const [row] = reader.getRowsJS();
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { userId: text(row?.[0]), apiKeyId: text(row?.[1]), homeWorkspaceId: text(row?.[2]) };
}
