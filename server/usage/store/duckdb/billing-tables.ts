import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * The billing period's tables, created when missing (kept apart from the numbered migrations,
 * as the limits' tables are):
 * - `feedback`: feedback on runs, by id; `body` is the JSON answered back.
 * - `trace_upgrades`: one row per trace upgraded to extended retention by feedback, at the
 *   moment of the upgrade (billed in that month), with who caused it. The primary key is what
 *   makes an upgrade once-only. Traces ingested extended are not here: `traces` has them.
 * - `billing_plan`: the organization's plan (one row), JSON as `contracts/usage/pricing.ts`.
 */
const TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS feedback (
    id UUID PRIMARY KEY,
    workspace_id UUID NOT NULL,
    run_id UUID,
    trace_id UUID,
    key VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL,
    body VARCHAR NOT NULL
  );
  CREATE TABLE IF NOT EXISTS trace_upgrades (
    trace_id UUID PRIMARY KEY,
    workspace_id UUID NOT NULL,
    project_id UUID NOT NULL,
    user_id UUID,
    api_key_id UUID,
    upgraded_at TIMESTAMP NOT NULL
  );
  CREATE TABLE IF NOT EXISTS billing_plan (
    id INTEGER PRIMARY KEY,
    plan VARCHAR NOT NULL,
    updated_at TIMESTAMP NOT NULL
  );`;

export async function ensureBillingTables(connection: DuckDBConnection): Promise<void> {
  await connection.run(TABLES_SQL);
}
