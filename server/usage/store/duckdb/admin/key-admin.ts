import type { DuckDBConnection } from '@duckdb/node-api';
import type { KeyRole } from '@server/usage/store/key-roles';
import type { ApiKeySummary } from '@server/usage/store/usage-store';

const SUMMARY_COLUMNS = `id::VARCHAR, short_key, description, role,
  strftime(created_at, '%Y-%m-%dT%H:%M:%S.%g') || 'Z',
  CASE WHEN revoked_at IS NULL THEN NULL ELSE strftime(revoked_at, '%Y-%m-%dT%H:%M:%S.%g') || 'Z' END`;

const toSummary = (row: unknown[]): ApiKeySummary => ({
  id: String(row[0]),
  short_key: String(row[1]),
  description: String(row[2]),
  role: String(row[3]) as KeyRole,
  created_at: String(row[4]),
  revoked_at: row[5] === null ? null : String(row[5]),
});

/** The keys made with a role, newest first. */
export async function listKeys(connection: DuckDBConnection): Promise<ApiKeySummary[]> {
  const reader = await connection.runAndReadAll(
    `SELECT ${SUMMARY_COLUMNS} FROM api_key_roles ORDER BY created_at DESC, id`,
  );
  return reader.getRowsJS().map(toSummary);
}

/** Marks the key revoked and removes its credentials, in one transaction. */
export async function revokeKey(
  connection: DuckDBConnection,
  id: string,
  at: Date,
): Promise<ApiKeySummary | undefined> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const found = await connection.runAndReadAll(
      `SELECT ${SUMMARY_COLUMNS}, key_hash FROM api_key_roles WHERE id = $1::UUID`,
      [id],
    );
    const [row] = found.getRowsJS();
    if (row && row[5] === null) {
      const keyHash = String(row[6]);
      await connection.run(
        'UPDATE api_key_roles SET revoked_at = $2::TIMESTAMP WHERE id = $1::UUID',
        [id, at.toISOString().replace('Z', '')],
      );
      for (const table of ['auth_keys', 'auth_key_workspaces', 'auth_key_owners']) {
        await connection.run(`DELETE FROM ${table} WHERE key_hash = $1`, [keyHash]);
      }
    }
    await connection.run('COMMIT');
    return row ? toSummary(row) : undefined;
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
}
