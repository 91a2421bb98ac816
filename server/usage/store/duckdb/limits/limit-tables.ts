import type { DuckDBConnection } from '@duckdb/node-api';
import { DEMO_API_KEYS, USAGE_LIMITS_MANAGE_PERMISSION } from '@server/usage/seed/demo-keys';
import { hashApiKey } from '@server/usage/store/api-key-hash';

/**
 * The usage limits' tables, created when missing (kept apart from the numbered migrations: the
 * feature's DuckDB tables live in this folder):
 * - `usage_limits`: one limit per (workspace, type), LangSmith's `UsageLimit` plus thresholds.
 * - `usage_limit_defaults`: the org default per type, for workspaces without their own.
 * - `usage_limit_alerts`: one row per (workspace, type, month, threshold) alerted: the primary
 *   key is what makes an alert once-only.
 * - `usage_limit_deliveries`: every webhook attempt (the delivery log; never a key in it).
 * - `usage_limit_refusals`: root runs refused, per (workspace, type, project, minute) and the
 *   limit that refused them (`scope`, `target_id`, `spend`: null in rows older than them).
 * - `usage_scoped_limits`: project and user trace limits and workspace spend limits, one per
 *   (workspace, scope, target, type); a spend limit keeps the trace limits it was derived to.
 * - `usage_scoped_limit_alerts`: their alerts, one row per (workspace, scope, target, type,
 *   month, threshold); `used` and `limit_value` in dollars for a spend limit. Their deliveries
 *   go to `usage_limit_deliveries` with the rest.
 */
const TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS usage_limits (
    id UUID PRIMARY KEY,
    tenant_id UUID NOT NULL,
    limit_type VARCHAR NOT NULL,
    limit_value BIGINT NOT NULL,
    alert_thresholds INTEGER[] NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (tenant_id, limit_type)
  );
  CREATE TABLE IF NOT EXISTS usage_limit_defaults (
    limit_type VARCHAR PRIMARY KEY,
    limit_value BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
  );
  CREATE TABLE IF NOT EXISTS usage_limit_alerts (
    workspace_id UUID NOT NULL,
    limit_type VARCHAR NOT NULL,
    month DATE NOT NULL,
    threshold INTEGER NOT NULL,
    alert_id VARCHAR NOT NULL,
    used BIGINT NOT NULL,
    limit_value BIGINT NOT NULL,
    crossed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, limit_type, month, threshold)
  );
  CREATE TABLE IF NOT EXISTS usage_limit_deliveries (
    alert_id VARCHAR NOT NULL,
    workspace_id UUID NOT NULL,
    limit_type VARCHAR NOT NULL,
    threshold INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    attempted_at TIMESTAMP NOT NULL,
    status INTEGER,
    ok BOOLEAN NOT NULL,
    error VARCHAR
  );
  CREATE TABLE IF NOT EXISTS usage_limit_refusals (
    workspace_id UUID NOT NULL,
    limit_type VARCHAR NOT NULL,
    project_name VARCHAR NOT NULL,
    minute TIMESTAMP NOT NULL,
    refused BIGINT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS usage_scoped_limits (
    id UUID PRIMARY KEY,
    tenant_id UUID NOT NULL,
    scope VARCHAR NOT NULL,
    target_id UUID NOT NULL,
    limit_type VARCHAR NOT NULL,
    limit_value DOUBLE NOT NULL,
    extended_share DOUBLE,
    derived_traces BIGINT,
    derived_longlived BIGINT,
    alert_thresholds INTEGER[] NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (tenant_id, scope, target_id, limit_type)
  );
  CREATE TABLE IF NOT EXISTS usage_scoped_limit_alerts (
    workspace_id UUID NOT NULL,
    scope VARCHAR NOT NULL,
    target_id UUID NOT NULL,
    limit_type VARCHAR NOT NULL,
    month DATE NOT NULL,
    threshold INTEGER NOT NULL,
    alert_id VARCHAR NOT NULL,
    used DOUBLE NOT NULL,
    limit_value DOUBLE NOT NULL,
    crossed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (workspace_id, scope, target_id, limit_type, month, threshold)
  );`;

/**
 * Creates the tables when missing and gives the demo admin key the permission to change limits
 * (a store seeded before limits existed has the key without it). Idempotent; run after seeding.
 */
export async function ensureLimitTables(connection: DuckDBConnection): Promise<void> {
  await connection.run(TABLES_SQL);
  // Added to the refusal log after it shipped: a file made before gains the columns.
  await connection.run(
    `ALTER TABLE usage_limit_refusals ADD COLUMN IF NOT EXISTS scope VARCHAR;
     ALTER TABLE usage_limit_refusals ADD COLUMN IF NOT EXISTS target_id UUID;
     ALTER TABLE usage_limit_refusals ADD COLUMN IF NOT EXISTS spend BOOLEAN;`,
  );
  await connection.run(
    `UPDATE auth_keys SET permissions = list_append(permissions, $1)
     WHERE key_hash = $2 AND NOT list_contains(permissions, $1)`,
    [USAGE_LIMITS_MANAGE_PERMISSION, hashApiKey(DEMO_API_KEYS.admin)],
  );
}
