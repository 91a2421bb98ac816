import type { Pool } from 'pg';
import { inTransaction } from '@server/db/postgres';
import type { KeyRole } from '@server/usage/store/key-roles';
import type { ApiKeySummary } from '@server/usage/store/usage-store';

const ISO = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS') || 'Z'`;
const SUMMARY_COLUMNS = `id::text, short_key, description, role, ${ISO('created_at')} AS created_at,
  CASE WHEN revoked_at IS NULL THEN NULL ELSE ${ISO('revoked_at')} END AS revoked_at`;

interface SummaryRow {
  id: string;
  short_key: string;
  description: string;
  role: string;
  created_at: string;
  revoked_at: string | null;
}

const toSummary = (row: SummaryRow): ApiKeySummary => ({ ...row, role: row.role as KeyRole });

/** The keys made with a role, newest first. */
export async function listKeys(pool: Pool): Promise<ApiKeySummary[]> {
  const result = await pool.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM usage.api_key_roles ORDER BY created_at DESC, id`,
  );
  return result.rows.map(toSummary);
}

/** Marks the key revoked and removes its credentials, in one transaction (any replica sees it). */
export async function revokeKey(
  pool: Pool,
  id: string,
  at: Date,
): Promise<ApiKeySummary | undefined> {
  return inTransaction(pool, async (client) => {
    const found = await client.query<SummaryRow & { key_hash: string }>(
      `SELECT ${SUMMARY_COLUMNS}, key_hash FROM usage.api_key_roles WHERE id = $1 FOR UPDATE`,
      [id],
    );
    const [row] = found.rows;
    if (!row) return undefined;
    if (row.revoked_at === null) {
      await client.query('UPDATE usage.api_key_roles SET revoked_at = $2 WHERE id = $1', [
        id,
        at.toISOString().replace('Z', ''),
      ]);
      for (const table of ['auth_keys', 'auth_key_workspaces', 'auth_key_owners']) {
        await client.query(`DELETE FROM usage.${table} WHERE key_hash = $1`, [row.key_hash]);
      }
    }
    const { key_hash: _hash, ...summary } = row;
    return toSummary(summary);
  });
}
