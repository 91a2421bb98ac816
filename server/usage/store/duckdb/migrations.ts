/**
 * Numbered schema migrations, applied in order once each (recorded in `schema_migrations`).
 * Never edit a shipped migration: add the next number.
 *
 * Layout, designed for the two queries the API runs:
 * - `traces`: one row per billable trace; a `run_id` is billed once (re-delivered traces count
 *   once). Since migration 6 no index enforces it: the only writer checks run ids against an
 *   in-memory filter loaded from this table (`run-id-filter.ts`).
 *   Rows are appended in time order, so DuckDB's per-row-group min/max on `start_time` prunes
 *   the partial-day edge scans.
 * - `usage_daily`: trace counts per UTC day, per `grouping` (workspace, project, user, api_key;
 *   trace_tier since migration 9, whose dimension is the tier's fixed id) and per workspace. One small row per (grouping, day, workspace, dimension value) serves every
 *   day-based stride (buckets start at UTC midnight). `dim_id` is NULL for traces without a user
 *   or API key. No index: rows are written in (grouping, day) order and scanned by range.
 * - `usage_cumulative` (migration 4): per (grouping, 128-day period, workspace, dimension value)
 *   a list of running totals, so any whole-day bucket costs two list reads per dimension value
 *   (see `cumulative-rollup.ts`). Kept exact with `usage_daily` by the same writers; queries read
 *   whole days from it. Backfilled from `usage_daily` when an existing store is upgraded.
 * - `auth_keys` / `auth_key_workspaces`: credentials of the usage API, stored as sha256 hashes.
 * - `seed_runs`: which generated dataset was loaded, so an interrupted load is redone.
 * - `auth_key_owners` (migration 5): the user and the `api_keys` row a key's ingested traces are
 *   billed to; a key also needs `runs:create` in its permissions to ingest.
 */
import { demoKeyOwnersSql } from './seed/demo-key-owners-sql';
import { REBUILD_CUMULATIVE_SQL } from './cumulative-rollup';
import { DEPLOYMENT_TABLES_SQL } from './deployment-tables';
import { TIER_COLUMN } from './dimension-sql';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'dimensions',
    sql: `
      CREATE TABLE workspaces (
        id UUID PRIMARY KEY,
        display_name VARCHAR NOT NULL,
        is_personal BOOLEAN NOT NULL DEFAULT false,
        created_at TIMESTAMP NOT NULL
      );
      CREATE TABLE projects (id UUID PRIMARY KEY, workspace_id UUID NOT NULL, name VARCHAR NOT NULL);
      CREATE TABLE users (id UUID PRIMARY KEY, email VARCHAR);
      CREATE TABLE api_keys (
        id UUID PRIMARY KEY,
        workspace_id UUID NOT NULL,
        short_key VARCHAR NOT NULL,
        description VARCHAR NOT NULL
      );`,
  },
  {
    version: 2,
    name: 'traces and daily rollup',
    sql: `
      CREATE TABLE traces (
        run_id UUID NOT NULL,
        workspace_id UUID NOT NULL,
        project_id UUID NOT NULL,
        user_id UUID,
        api_key_id UUID,
        start_time TIMESTAMP NOT NULL
      );
      CREATE UNIQUE INDEX traces_run_id ON traces (run_id);
      CREATE TABLE usage_daily (
        grouping VARCHAR NOT NULL,
        day DATE NOT NULL,
        workspace_id UUID NOT NULL,
        dim_id UUID,
        traces BIGINT NOT NULL
      );`,
  },
  {
    version: 3,
    name: 'auth keys and seed runs',
    sql: `
      CREATE TABLE auth_keys (
        key_hash VARCHAR PRIMARY KEY,
        label VARCHAR NOT NULL,
        permissions VARCHAR[] NOT NULL
      );
      CREATE TABLE auth_key_workspaces (
        key_hash VARCHAR NOT NULL,
        workspace_id UUID NOT NULL,
        role_name VARCHAR NOT NULL,
        read_only BOOLEAN NOT NULL
      );
      CREATE TABLE seed_runs (
        profile VARCHAR NOT NULL,
        started_at TIMESTAMP NOT NULL,
        completed_at TIMESTAMP,
        traces BIGINT
      );`,
  },
  {
    version: 4,
    name: 'cumulative rollup',
    sql: `
      CREATE TABLE usage_cumulative (
        grouping VARCHAR NOT NULL,
        period INTEGER NOT NULL,
        workspace_id UUID NOT NULL,
        dim_id UUID,
        cum BIGINT[] NOT NULL
      );
      ${REBUILD_CUMULATIVE_SQL}`,
  },
  {
    version: 5,
    name: 'api key owners for trace ingestion',
    // A store seeded before ingestion existed gets its demo keys' owners now; a fresh one gets
    // them from the seed.
    sql: `
      CREATE TABLE auth_key_owners (
        key_hash VARCHAR PRIMARY KEY,
        user_id UUID NOT NULL,
        api_key_id UUID NOT NULL
      );
      ${demoKeyOwnersSql()}`,
  },
  {
    version: 6,
    name: 'billed run ids leave the unique index',
    // DuckDB rewrites a whole ART index at every checkpoint (0.4-0.6 s with 2 M traces): the
    // ingestor keeps billed run ids in memory instead (store/run-id-filter.ts).
    sql: 'DROP INDEX IF EXISTS traces_run_id;',
  },
  {
    version: 7,
    name: 'deployment metrics',
    // The Deployments domain (kind=langsmith_deployments): see deployment-tables.ts.
    sql: DEPLOYMENT_TABLES_SQL,
  },
  {
    version: 8,
    name: 'trace retention tiers',
    // A project's default tier (NULL: short-lived) is given to each trace at ingestion; traces
    // stored before keep theirs: short-lived, the tier every trace had until now.
    sql: `
      ALTER TABLE projects ADD COLUMN trace_tier VARCHAR;
      ALTER TABLE traces ADD COLUMN trace_tier VARCHAR DEFAULT 'shortlived';`,
  },
  {
    version: 9,
    name: 'retention tiers in the rollups',
    // group_by=trace_tier (asked on every load of the usage tab) read every trace of its range;
    // the rollups now count traces per tier too, as grouping `trace_tier` (dimension: the tier's
    // fixed id). Backfilled from the traces; the cumulative rollup is rebuilt from the daily one.
    sql: `
      DELETE FROM usage_daily WHERE grouping = 'trace_tier';
      INSERT INTO usage_daily
      SELECT 'trace_tier', start_time::DATE AS day, workspace_id, ${TIER_COLUMN} AS dim_id, count(*)
      FROM traces GROUP BY ALL ORDER BY day, workspace_id, dim_id;
      ${REBUILD_CUMULATIVE_SQL}`,
  },
];
