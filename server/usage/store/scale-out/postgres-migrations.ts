import type { Pool } from 'pg';
import { migrate, type Migration } from '@server/db/postgres';
import { LLM_DAILY_MIGRATION_SQL } from './llm/llm-daily-sql';
import { LLM_LANDING_SQL, LLM_USAGE_TABLES_SQL } from './llm/llm-tables';

/**
 * The usage service's Postgres tables, in schema `usage` (one Postgres may also hold the
 * deployment service's schema). Numbered, applied once each, recorded in
 * `usage.schema_migrations`; never edit a shipped one, add the next number.
 *
 * - Dimension tables (`workspaces`, `projects`, `users`, `api_keys`) and credentials
 *   (`auth_keys`, `auth_key_workspaces`, `auth_key_owners`) as in the DuckDB backend. Labels are
 *   `bytea` (UTF-8): Postgres text cannot hold U+0000, and byte order is DuckDB's sort order.
 * - `billed_runs`: every run id ever billed, the cross-replica replacement for DuckDB's in-memory
 *   filter. A row with `claim` set is a batch's claim not yet confirmed (see `billed-runs.ts`);
 *   `workspace_id`/`day` say where its trace would be in ClickHouse, to look it up after a crash.
 * - `seed_runs`: which generated dataset was loaded (an interrupted load is redone).
 * - 10 (retention tiers): `projects.trace_tier`, a project's default retention tier (NULL:
 *   short-lived), given to each trace at ingestion; the Deployments domain's
 *   `deployment_usage` (metered work per workspace, project and instant, appended; queries sum)
 *   and `deployment_replicas` (per replica its start, the end of the uptime credited and the last
 *   report applied), as in the DuckDB backend, updated in one transaction per report.
 * - Usage limits (version 20; the same shapes as the DuckDB backend's `limits/`):
 *   `usage_limits`, `usage_limit_defaults`, `usage_limit_alerts` (its primary key makes an alert
 *   once per month and threshold across replicas), `usage_limit_deliveries`,
 *   `usage_limit_refusals`, and `limit_counters`: traces billed per (workspace, UTC month), the
 *   row every claim of that workspace and month updates under its lock (`month-counters.ts`).
 *   `billed_runs.long_lived` says which counter column a dead claim is taken back from.
 * - Keys with roles and the audit log (version 40; as the DuckDB backend's `admin/`):
 *   `api_key_roles` (the key list; a revoked key keeps its row and loses its credentials) and
 *   `audit_log` (every change made through the API; `seq` is its order, newest last).
 * - Project, user and spend limits (version 42; as the DuckDB backend's `usage_scoped_limits`):
 *   `usage_scoped_limits`, one per (workspace, scope, target, type), a spend limit with the trace
 *   limits it was derived to; `limit_target_counters`, traces billed per (project or user, UTC
 *   month), kept by every claim beside `limit_counters`, in the same transaction
 *   (`target-counters.ts`); `billed_runs.project_id`/`user_id` say which target counters a dead
 *   claim is taken back from.
 * - LLM usage daily rollup (version 43): `llm_daily`, built from the stored runs, then upserted
 *   in the statement that stores each run (`llm/llm-daily-sql.ts`).
 * - Alerts of project, user and spend limits (version 44; as the DuckDB backend's
 *   `usage_scoped_limit_alerts`): `usage_scoped_limit_alerts`, whose primary key makes an alert
 *   once per (workspace, scope, target, type, month, threshold) across replicas; `used` and
 *   `limit_value` in dollars for a spend limit. Their delivery attempts go to
 *   `usage_limit_deliveries` with the workspace limits' ones (joined on `alert_id`).
 *   `usage_limit_refusals` gains the limit that refused (`scope`, `target_id`, `spend`; null in
 *   older rows), so each project, user and spend limit counts its own refusals.
 * - LLM runs in ClickHouse (version 45): `llm_runs.landing`/`landing_at`, a run's claim until
 *   ClickHouse holds it (`llm/llm-landing.ts`); from then on `llm_daily` is kept for the model
 *   grouping only, as the dimension groupings are read from ClickHouse.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'catalog, keys, billed runs, seed runs',
    sql: `
      CREATE TABLE usage.workspaces (
        id uuid PRIMARY KEY,
        display_name bytea NOT NULL,
        is_personal boolean NOT NULL DEFAULT false,
        created_at timestamp(3) NOT NULL
      );
      CREATE TABLE usage.projects (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, name bytea NOT NULL);
      CREATE INDEX projects_workspace_name ON usage.projects (workspace_id, name);
      CREATE TABLE usage.users (id uuid PRIMARY KEY, email bytea);
      CREATE TABLE usage.api_keys (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        short_key bytea NOT NULL,
        description text NOT NULL
      );
      CREATE TABLE usage.auth_keys (
        key_hash text PRIMARY KEY,
        label text NOT NULL,
        permissions text[] NOT NULL
      );
      CREATE TABLE usage.auth_key_workspaces (
        key_hash text NOT NULL,
        workspace_id uuid NOT NULL,
        role_name text NOT NULL,
        read_only boolean NOT NULL,
        PRIMARY KEY (key_hash, workspace_id)
      );
      CREATE TABLE usage.auth_key_owners (
        key_hash text PRIMARY KEY,
        user_id uuid NOT NULL,
        api_key_id uuid NOT NULL
      );
      CREATE TABLE usage.billed_runs (
        run_id uuid PRIMARY KEY,
        claim uuid,
        claimed_at timestamptz,
        workspace_id uuid,
        day date
      );
      CREATE INDEX billed_runs_claim ON usage.billed_runs (claim) WHERE claim IS NOT NULL;
      CREATE TABLE usage.seed_runs (
        profile text NOT NULL,
        started_at timestamptz NOT NULL,
        completed_at timestamptz,
        traces bigint
      );`,
  },
  {
    version: 10,
    name: 'retention tiers, deployments domain',
    sql: `
      ALTER TABLE usage.projects ADD COLUMN trace_tier text;
      CREATE TABLE usage.deployment_usage (
        workspace_id uuid NOT NULL,
        project_id uuid NOT NULL,
        metered_ms bigint NOT NULL,
        agent_runs bigint NOT NULL,
        nodes_executed bigint NOT NULL,
        uptime_ms bigint NOT NULL
      );
      CREATE INDEX deployment_usage_workspace_time ON usage.deployment_usage (workspace_id, metered_ms);
      CREATE TABLE usage.deployment_replicas (
        replica_id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        started_ms bigint NOT NULL,
        last_seen_ms bigint NOT NULL,
        last_seq integer NOT NULL
      );`,
  },
  {
    version: 20,
    name: 'usage limits, alerts, refusals, month counters',
    sql: `
      CREATE TABLE usage.usage_limits (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        limit_type text NOT NULL,
        limit_value bigint NOT NULL,
        alert_thresholds integer[] NOT NULL,
        created_at timestamp(3) NOT NULL,
        updated_at timestamp(3) NOT NULL,
        UNIQUE (tenant_id, limit_type)
      );
      CREATE TABLE usage.usage_limit_defaults (
        limit_type text PRIMARY KEY,
        limit_value bigint NOT NULL,
        created_at timestamp(3) NOT NULL,
        updated_at timestamp(3) NOT NULL
      );
      CREATE TABLE usage.usage_limit_alerts (
        workspace_id uuid NOT NULL,
        limit_type text NOT NULL,
        month date NOT NULL,
        threshold integer NOT NULL,
        alert_id text NOT NULL,
        used bigint NOT NULL,
        limit_value bigint NOT NULL,
        crossed_at timestamp(3) NOT NULL,
        PRIMARY KEY (workspace_id, limit_type, month, threshold)
      );
      CREATE TABLE usage.usage_limit_deliveries (
        alert_id text NOT NULL,
        workspace_id uuid NOT NULL,
        limit_type text NOT NULL,
        threshold integer NOT NULL,
        attempt integer NOT NULL,
        attempted_at timestamp(3) NOT NULL,
        status integer,
        ok boolean NOT NULL,
        error text
      );
      CREATE INDEX usage_limit_deliveries_workspace
        ON usage.usage_limit_deliveries (workspace_id, attempted_at);
      CREATE TABLE usage.usage_limit_refusals (
        workspace_id uuid NOT NULL,
        limit_type text NOT NULL,
        project_name bytea NOT NULL,
        minute timestamp(3) NOT NULL,
        refused bigint NOT NULL
      );
      CREATE INDEX usage_limit_refusals_workspace
        ON usage.usage_limit_refusals (workspace_id, minute);
      CREATE TABLE usage.limit_counters (
        workspace_id uuid NOT NULL,
        month date NOT NULL,
        traces bigint NOT NULL,
        longlived bigint NOT NULL,
        PRIMARY KEY (workspace_id, month)
      );
      ALTER TABLE usage.billed_runs ADD COLUMN long_lived boolean NOT NULL DEFAULT false;
      UPDATE usage.auth_keys SET permissions = array_append(permissions, 'usage-limits:manage')
      WHERE key_hash = encode(sha256('lsv2_demo_admin'::bytea), 'hex') AND NOT ('usage-limits:manage' = ANY (permissions));`,
  },
  // LLM usage and the model price maps: see llm/llm-tables.ts.
  { version: 40, name: 'llm usage and model prices', sql: LLM_USAGE_TABLES_SQL },
  {
    version: 41,
    name: 'keys with roles, audit log',
    sql: `
      CREATE TABLE usage.api_key_roles (
        id uuid PRIMARY KEY,
        key_hash text NOT NULL,
        short_key text NOT NULL,
        description text NOT NULL,
        role text NOT NULL,
        created_at timestamp(3) NOT NULL,
        revoked_at timestamp(3)
      );
      CREATE TABLE usage.audit_log (
        seq bigserial PRIMARY KEY,
        id uuid NOT NULL UNIQUE,
        changed_at timestamp(3) NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        target text NOT NULL,
        before_json text,
        after_json text
      );
      UPDATE usage.auth_keys SET permissions = array_append(permissions, 'organization:manage')
      WHERE key_hash = encode(sha256('lsv2_demo_admin'::bytea), 'hex')
        AND NOT ('organization:manage' = ANY (permissions));`,
  },
  {
    version: 42,
    name: 'project, user and spend limits, target counters',
    sql: `
      CREATE TABLE usage.usage_scoped_limits (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        scope text NOT NULL,
        target_id uuid NOT NULL,
        limit_type text NOT NULL,
        limit_value float8 NOT NULL,
        extended_share float8,
        derived_traces bigint,
        derived_longlived bigint,
        alert_thresholds integer[] NOT NULL,
        created_at timestamp(3) NOT NULL,
        updated_at timestamp(3) NOT NULL,
        UNIQUE (tenant_id, scope, target_id, limit_type)
      );
      CREATE TABLE usage.limit_target_counters (
        scope text NOT NULL,
        target_id uuid NOT NULL,
        month date NOT NULL,
        traces bigint NOT NULL,
        PRIMARY KEY (scope, target_id, month)
      );
      ALTER TABLE usage.billed_runs ADD COLUMN project_id uuid, ADD COLUMN user_id uuid;`,
  },
  // The daily rollup of LLM usage, built from the runs stored before it: see llm/llm-daily-sql.ts.
  { version: 43, name: 'llm usage daily rollup', sql: LLM_DAILY_MIGRATION_SQL },
  {
    version: 44,
    name: 'alerts and refusals of project, user and spend limits',
    sql: `
      CREATE TABLE usage.usage_scoped_limit_alerts (
        workspace_id uuid NOT NULL,
        scope text NOT NULL,
        target_id uuid NOT NULL,
        limit_type text NOT NULL,
        month date NOT NULL,
        threshold integer NOT NULL,
        alert_id text NOT NULL UNIQUE,
        used float8 NOT NULL,
        limit_value float8 NOT NULL,
        crossed_at timestamp(3) NOT NULL,
        PRIMARY KEY (workspace_id, scope, target_id, limit_type, month, threshold)
      );
      ALTER TABLE usage.usage_limit_refusals
        ADD COLUMN scope text, ADD COLUMN target_id uuid, ADD COLUMN spend boolean;`,
  },
  // Each LLM run's landing in ClickHouse: see llm/llm-tables.ts and llm/llm-landing.ts.
  { version: 45, name: 'llm runs landed in clickhouse', sql: LLM_LANDING_SQL },
];

/** Applies the migrations not yet recorded, each in its own transaction (under `migrateScaleOut`'s lock). */
export const migratePostgres = (pool: Pool): Promise<void> =>
  migrate(pool, { schema: 'usage', table: 'schema_migrations', named: true }, MIGRATIONS);
