/**
 * The LLM usage tables on Postgres (migration 40), as the DuckDB backend's `llm/llm-tables.ts`:
 * - `llm_runs`: one row per LLM run id that reported usage, counted at ingestion time
 *   (`ingested_ms`). The primary key stores a run once across resends and replicas: a replica's
 *   insert is one statement, `ON CONFLICT DO NOTHING`, durable when it answers. Model names are
 *   `bytea` (UTF-8) like the other labels, so they sort as DuckDB sorts them.
 * - `model_prices`: the workspaces' own model price map entries, each the entry's JSON; the
 *   unique `conditions` make a second entry with the same match conditions fail on any replica.
 */
export const LLM_USAGE_TABLES_SQL = `
  CREATE TABLE usage.llm_runs (
    run_id uuid PRIMARY KEY,
    workspace_id uuid NOT NULL,
    project_id uuid NOT NULL,
    user_id uuid,
    api_key_id uuid,
    ingested_ms bigint NOT NULL,
    model_name bytea,
    model_provider bytea,
    input_tokens bigint NOT NULL,
    output_tokens bigint NOT NULL,
    cache_read_tokens bigint NOT NULL,
    cache_creation_tokens bigint NOT NULL,
    reasoning_tokens bigint NOT NULL,
    total_tokens bigint NOT NULL,
    cost_nanos bigint,
    cost_source text NOT NULL
  );
  CREATE INDEX llm_runs_workspace_time ON usage.llm_runs (workspace_id, ingested_ms);
  CREATE TABLE usage.model_prices (
    id uuid PRIMARY KEY,
    workspace_id uuid NOT NULL,
    conditions text NOT NULL,
    entry text NOT NULL,
    created_at timestamp(3) NOT NULL DEFAULT now(),
    UNIQUE (workspace_id, conditions)
  );`;

/**
 * Migration 45: the landing claim of each run in ClickHouse (`llm-landing.ts`). NULL once the
 * run is in ClickHouse's `llm_runs`; a batch's claim until its insert there is confirmed. Rows
 * stored before (or by a replica of an earlier version, whose insert names no claim) take the
 * defaults, the nil claim, and are landed by the sweep once its lease has passed.
 */
export const LLM_LANDING_SQL = `
  ALTER TABLE usage.llm_runs
    ADD COLUMN landing uuid DEFAULT '00000000-0000-0000-0000-000000000000',
    ADD COLUMN landing_at timestamptz DEFAULT now();
  CREATE INDEX llm_runs_landing ON usage.llm_runs (landing_at) WHERE landing IS NOT NULL;`;
