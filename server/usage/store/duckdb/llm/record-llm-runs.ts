import type { DuckDBConnection } from '@duckdb/node-api';
import { DEFAULT_MODEL_PRICES } from '@server/usage/model/default-model-prices';
import { priceLlmRun } from '@server/usage/model/price-llm-run';
import type { LlmRunBatch } from '@server/usage/store/llm-usage-store';
import { ensureNamedProjects } from '../ensure-projects';
import { loadModelPrices } from './model-prices';

const COLUMNS = 16;

/**
 * Stores a batch's LLM runs, in the one writer: each run id once (the first sender owns it; one
 * already stored is skipped by the primary key), priced with the workspace's map as it is now.
 */
export async function recordLlmRuns(
  connection: DuckDBConnection,
  batch: LlmRunBatch,
): Promise<{ inserted: number }> {
  const runs = new Map(batch.runs.map((run) => [run.usage.runId.toLowerCase(), run]));
  if (runs.size === 0) return { inserted: 0 };
  const projects = await ensureNamedProjects(
    connection,
    batch.workspaceId,
    [...runs.values()].map((run) => run.projectName),
  );
  const prices = [
    ...(await loadModelPrices(connection, [batch.workspaceId])),
    ...DEFAULT_MODEL_PRICES,
  ];
  const ingestedAt = batch.ingestedAt ?? new Date();
  const values: (string | number | null)[] = [];
  const rows: string[] = [];
  for (const [runId, { usage, projectName }] of runs) {
    const priced = priceLlmRun(prices, usage, ingestedAt.getTime());
    const base = values.length;
    values.push(
      runId,
      batch.workspaceId,
      projects.get(projectName) ?? null,
      batch.userId,
      batch.apiKeyId,
      ingestedAt.toISOString(),
      usage.modelName,
      usage.modelProvider,
      usage.inputTokens,
      usage.outputTokens,
      usage.cacheReadTokens,
      usage.cacheCreationTokens,
      usage.reasoningTokens,
      usage.totalTokens,
      priced.costNanos,
      priced.source,
    );
    const casts = ['UUID', 'UUID', 'UUID', 'UUID', 'UUID', 'TIMESTAMP', 'VARCHAR', 'VARCHAR'];
    const cells = Array.from({ length: COLUMNS }, (_, i) => {
      const cast = casts[i] ?? (i === COLUMNS - 1 ? 'VARCHAR' : 'BIGINT');
      return `$${base + i + 1}::${cast}`;
    });
    rows.push(`(${cells.join(', ')})`);
  }
  const reader = await connection.runAndReadAll(
    `INSERT INTO llm_runs VALUES ${rows.join(', ')} ON CONFLICT DO NOTHING RETURNING run_id`,
    values,
  );
  return { inserted: reader.getRowsJS().length };
}
