import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * The LLM usage tables, created when missing (kept apart from the numbered migrations, as the
 * limits' tables are):
 * - `llm_runs`: one row per LLM run id that reported usage, counted at ingestion time
 *   (`ingested_at`), with its workspace, project, user, API key and model, its token counts and
 *   its cost in nano-dollars as priced when stored (NULL: unpriced). The primary key is what
 *   stores a run once, whatever the resends.
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

export async function ensureLlmTables(connection: DuckDBConnection): Promise<void> {
  await connection.run(TABLES_SQL);
}
