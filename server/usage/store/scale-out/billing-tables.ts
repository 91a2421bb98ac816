import type { Pool } from 'pg';
import { withAdvisoryLock } from '@server/db/postgres';

/** Any fixed number: replicas starting together create the tables one after the other. */
const BILLING_TABLES_LOCK = 7_240_041;

/**
 * The billing period's Postgres tables, created when missing (as DuckDB's `billing-tables.ts`):
 * feedback by id, one upgrade row per trace (the primary key makes an upgrade once-only across
 * replicas) and the organization's plan.
 */
const TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS usage.feedback (
    id uuid PRIMARY KEY,
    workspace_id uuid NOT NULL,
    run_id uuid,
    trace_id uuid,
    key text NOT NULL,
    created_at timestamptz(3) NOT NULL,
    body jsonb NOT NULL
  );
  CREATE INDEX IF NOT EXISTS feedback_workspace_created
    ON usage.feedback (workspace_id, created_at);
  CREATE TABLE IF NOT EXISTS usage.trace_upgrades (
    trace_id uuid PRIMARY KEY,
    workspace_id uuid NOT NULL,
    project_id uuid NOT NULL,
    user_id uuid,
    api_key_id uuid,
    upgraded_at timestamptz(3) NOT NULL
  );
  CREATE INDEX IF NOT EXISTS trace_upgrades_time ON usage.trace_upgrades (upgraded_at);
  CREATE TABLE IF NOT EXISTS usage.billing_plan (
    id integer PRIMARY KEY,
    plan jsonb NOT NULL,
    updated_at timestamptz(3) NOT NULL
  );`;

export const ensureBillingTables = (pool: Pool): Promise<void> =>
  withAdvisoryLock(pool, BILLING_TABLES_LOCK, async () => {
    await pool.query(TABLES_SQL);
  });
