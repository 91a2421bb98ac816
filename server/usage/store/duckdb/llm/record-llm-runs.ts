import type { DuckDBConnection } from '@duckdb/node-api';
import { DEFAULT_MODEL_PRICES } from '@server/usage/model/default-model-prices';
import { priceLlmRun } from '@server/usage/model/price-llm-run';
import { llmRollupIncrements } from '@server/usage/model/llm-rollup';
import type { LlmRunBatch, LlmRunToStore } from '@server/usage/store/llm-usage-store';
import { addToLlmRollups, type KnownLlmRollupRows } from './add-llm-rollups';
import { ensureProjects } from '../ensure-projects';
import { loadModelPrices } from './model-prices';

/** The JSON row shape the insert reads (one parameter, whatever the batch size). */
const ROW_TYPE = JSON.stringify([
  {
    run_id: 'VARCHAR',
    project_id: 'VARCHAR',
    ingested_at: 'VARCHAR',
    model_name: 'VARCHAR',
    model_provider: 'VARCHAR',
    input_tokens: 'BIGINT',
    output_tokens: 'BIGINT',
    cache_read_tokens: 'BIGINT',
    cache_creation_tokens: 'BIGINT',
    reasoning_tokens: 'BIGINT',
    total_tokens: 'BIGINT',
    cost_nanos: 'BIGINT',
    cost_source: 'VARCHAR',
  },
]);

/**
 * Stores a batch's LLM runs, in the one writer and one transaction with the rollups they add
 * to: each run id once (the first sender owns it; one already stored is skipped by the primary
 * key, and only the runs inserted are rolled up), priced with the workspace's map as it is now
 * (or, for the seed and tests, at each run's own instant).
 */
export async function recordLlmRuns(
  connection: DuckDBConnection,
  batch: LlmRunBatch,
  known: KnownLlmRollupRows,
): Promise<{ inserted: number }> {
  const runs = new Map(batch.runs.map((run) => [run.usage.runId.toLowerCase(), run]));
  if (runs.size === 0) return { inserted: 0 };
  await connection.run('BEGIN TRANSACTION');
  try {
    const { inserted, created } = await insertRuns(connection, batch, runs, known);
    await connection.run('COMMIT');
    for (const key of created) known.add(key);
    return { inserted };
  } catch (error) {
    // A failed COMMIT has already ended the transaction; the original error is what matters.
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function insertRuns(
  connection: DuckDBConnection,
  batch: LlmRunBatch,
  runs: Map<string, LlmRunToStore>,
  known: KnownLlmRollupRows,
): Promise<{ inserted: number; created: string[] }> {
  const projectId = await ensureProjects(
    connection,
    [...runs.values()].map((run) => ({ workspaceId: batch.workspaceId, name: run.projectName })),
    new Map(),
    new Map(),
  );
  const prices = [
    ...(await loadModelPrices(connection, [batch.workspaceId])),
    ...DEFAULT_MODEL_PRICES,
  ];
  const now = new Date();
  const rows = [...runs].map(([runId, { usage, projectName, ingestedAt = now }]) => {
    const priced = priceLlmRun(prices, usage, ingestedAt.getTime());
    return {
      run_id: runId,
      project_id: projectId(batch.workspaceId, projectName),
      ingested_at: ingestedAt.toISOString(),
      model_name: usage.modelName,
      model_provider: usage.modelProvider,
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      cache_read_tokens: usage.cacheReadTokens,
      cache_creation_tokens: usage.cacheCreationTokens,
      reasoning_tokens: usage.reasoningTokens,
      total_tokens: usage.totalTokens,
      cost_nanos: priced.costNanos,
      cost_source: priced.source,
    };
  });
  const reader = await connection.runAndReadAll(
    `INSERT INTO llm_runs
     SELECT r.run_id::UUID, $2::UUID, r.project_id::UUID, $3::UUID, $4::UUID,
       r.ingested_at::TIMESTAMP, r.model_name, r.model_provider, r.input_tokens, r.output_tokens,
       r.cache_read_tokens, r.cache_creation_tokens, r.reasoning_tokens, r.total_tokens,
       r.cost_nanos, r.cost_source
     FROM (SELECT unnest(from_json($1::JSON, '${ROW_TYPE}'), recursive := true)) r
     ON CONFLICT DO NOTHING RETURNING run_id::VARCHAR`,
    [JSON.stringify(rows), batch.workspaceId, batch.userId, batch.apiKeyId],
  );
  const stored = new Set(reader.getRowsJS().map(([runId]) => String(runId)));
  const increments = llmRollupIncrements(
    rows
      .filter((row) => stored.has(row.run_id))
      .map((row) => ({
        workspaceId: batch.workspaceId,
        projectId: row.project_id,
        userId: batch.userId,
        apiKeyId: batch.apiKeyId,
        modelName: row.model_name,
        modelProvider: row.model_provider,
        ingestedMs: Date.parse(row.ingested_at),
        inputTokens: row.input_tokens,
        outputTokens: row.output_tokens,
        cacheReadTokens: row.cache_read_tokens,
        cacheCreationTokens: row.cache_creation_tokens,
        totalTokens: row.total_tokens,
        costNanos: row.cost_nanos,
        costSource: row.cost_source,
      })),
  );
  const created = await addToLlmRollups(connection, increments, known);
  return { inserted: stored.size, created };
}
