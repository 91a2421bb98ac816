import type { DuckDBConnection } from '@duckdb/node-api';
import { DEMO_API_KEYS, ORGANIZATION_MANAGE_PERMISSION } from '@server/usage/seed/demo-keys';
import { hashApiKey } from '@server/usage/store/api-key-hash';

/**
 * The admin tables, created when missing (kept apart from the numbered migrations, as the limits'
 * are):
 * - `api_key_roles`: the keys made with a role (CLI or API), as their list shows them; a revoked
 *   key keeps its row here and loses its `auth_keys` rows, so it authenticates nothing.
 * - `audit_log`: every change made through the API's write endpoints; `seq` orders entries made
 *   in the same millisecond (the one writer numbers them).
 */
const TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS api_key_roles (
    id UUID NOT NULL,
    key_hash VARCHAR NOT NULL,
    short_key VARCHAR NOT NULL,
    description VARCHAR NOT NULL,
    role VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP
  );
  CREATE TABLE IF NOT EXISTS audit_log (
    seq BIGINT NOT NULL,
    id UUID NOT NULL,
    changed_at TIMESTAMP NOT NULL,
    actor VARCHAR NOT NULL,
    action VARCHAR NOT NULL,
    target VARCHAR NOT NULL,
    before_json VARCHAR,
    after_json VARCHAR
  );`;

/**
 * Creates the tables when missing and makes the demo admin key an organisation admin (a store
 * seeded before keys had roles has the key without it). Idempotent.
 */
export async function ensureAdminTables(connection: DuckDBConnection): Promise<void> {
  await connection.run(TABLES_SQL);
  await connection.run(
    `UPDATE auth_keys SET permissions = list_append(permissions, $1)
     WHERE key_hash = $2 AND NOT list_contains(permissions, $1)`,
    [ORGANIZATION_MANAGE_PERMISSION, hashApiKey(DEMO_API_KEYS.admin)],
  );
}
