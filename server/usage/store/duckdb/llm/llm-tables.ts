import type { DuckDBConnection } from '@duckdb/node-api';
import { BACKFILL_LLM_DAILY_SQL, REBUILD_LLM_CUMULATIVE_SQL } from './llm-rollup-sql';

/**
 * The LLM usage tables, created when missing (kept apart from the numbered migrations, as the
 * limits' tables are):
 * - `llm_runs`: one row per LLM run id that reported usage, counted at ingestion time
 *   (`ingested_at`), with its workspace, project, user, API key and model, its token counts and
 *   its cost in nano-dollars as priced when stored (NULL: unpriced). The primary key is what
 *   stores a run once, whatever the resends: the ledger the rollups are counted from.
 * - `llm_daily` and `llm_cumulative`: the rollups of `llm_runs` (see `llm-rollup-sql.ts`),
 *   written in the same transaction as the runs they count.
 * - `model_prices`: the workspaces' own model price map entries, each the entry's JSON.
 */
const TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS llm_runs (
    run_id UUID PRIMARY KEY,
    workspace_id UUID NOT NULL,
    project_id UUID NOT NULL,
    user_id UUID,
    api_key_id UUID,
    ingested_at TIMESTAMP NOT NULL,
    model_name VARCHAR,
    model_provider VARCHAR,
    input_tokens BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    cache_read_tokens BIGINT NOT NULL,
    cache_creation_tokens BIGINT NOT NULL,
    reasoning_tokens BIGINT NOT NULL,
    total_tokens BIGINT NOT NULL,
    cost_nanos BIGINT,
    cost_source VARCHAR NOT NULL
  );
  CREATE TABLE IF NOT EXISTS model_prices (
    id UUID PRIMARY KEY,
    workspace_id UUID NOT NULL,
    entry VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL
  );`;

const ROLLUP_TABLES_SQL = `
  CREATE TABLE llm_daily (
    grouping VARCHAR NOT NULL,
    day DATE NOT NULL,
    workspace_id UUID NOT NULL,
    dim_id UUID,
    model_name VARCHAR,
    model_provider VARCHAR,
    input_tokens BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    cache_read_tokens BIGINT NOT NULL,
    cache_creation_tokens BIGINT NOT NULL,
    total_tokens BIGINT NOT NULL,
    cost_nanos BIGINT NOT NULL,
    priced_runs BIGINT NOT NULL,
    unpriced_runs BIGINT NOT NULL,
    declared_runs BIGINT NOT NULL
  );
  CREATE TABLE llm_cumulative (
    grouping VARCHAR NOT NULL,
    period INTEGER NOT NULL,
    workspace_id UUID NOT NULL,
    dim_id UUID,
    model_name VARCHAR,
    model_provider VARCHAR,
    input_tokens BIGINT[] NOT NULL,
    output_tokens BIGINT[] NOT NULL,
    cache_read_tokens BIGINT[] NOT NULL,
    cache_creation_tokens BIGINT[] NOT NULL,
    total_tokens BIGINT[] NOT NULL,
    cost_nanos BIGINT[] NOT NULL,
    priced_runs BIGINT[] NOT NULL,
    unpriced_runs BIGINT[] NOT NULL
  );`;

/**
 * Creates the missing tables. A store whose runs predate the rollups gets them built from
 * `llm_runs` here, in one transaction (the migration for existing data): the answers stay what
 * the runs sum to.
 */
export async function ensureLlmTables(connection: DuckDBConnection): Promise<void> {
  await connection.run(TABLES_SQL);
  const found = await connection.runAndReadAll(
    "SELECT count(*)::INTEGER FROM duckdb_tables() WHERE table_name = 'llm_daily'",
  );
  if (Number(found.getRowsJS()[0]?.[0] ?? 0) > 0) return;
  await connection.run('BEGIN TRANSACTION');
  try {
    await connection.run(ROLLUP_TABLES_SQL);
    await connection.run(BACKFILL_LLM_DAILY_SQL);
    await connection.run(REBUILD_LLM_CUMULATIVE_SQL);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
