import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { DEFAULT_MODEL_PRICES } from '@server/usage/model/default-model-prices';
import { priceLlmRun } from '@server/usage/model/price-llm-run';
import type { LlmRunBatch } from '@server/usage/store/llm-usage-store';
import { utf8 } from '../dimension-writes';
import { ensureProjects } from '../ensure-projects';
import { llmDailyRowsSql, ON_CONFLICT_ADD_SQL } from './llm-daily-sql';
import type { LandingQueue } from './llm-landing';
import { loadModelPrices } from './model-prices';

const bytes = (text: string | null) => (text === null ? null : utf8(text));

/**
 * Stores a batch's LLM runs and adds them to the model's daily rollup in one statement: each run
 * id once across resends and replicas (the primary key; the first insert wins, and only the
 * runs it inserted are rolled up), priced with the workspace's map as this replica reads it now.
 * The runs it inserted carry a landing claim until they are in ClickHouse (`llm-landing.ts`).
 */
export async function recordLlmRuns(
  pool: Pool,
  landing: LandingQueue,
  batch: LlmRunBatch,
): Promise<{ inserted: number }> {
  const runs = new Map(batch.runs.map((run) => [run.usage.runId.toLowerCase(), run]));
  if (runs.size === 0) return { inserted: 0 };
  const projects = await ensureProjects(
    pool,
    batch.workspaceId,
    [...runs.values()].map((run) => run.projectName),
  );
  const prices = [...(await loadModelPrices(pool, [batch.workspaceId])), ...DEFAULT_MODEL_PRICES];
  const now = Date.now();
  const list = [...runs];
  const times = list.map(([, run]) => run.ingestedAt?.getTime() ?? now);
  const priced = list.map(([, { usage }], i) => priceLlmRun(prices, usage, times[i] ?? now));
  const column = <T>(read: (run: (typeof list)[number][1]) => T) =>
    list.map(([, run]) => read(run));
  const claim = randomUUID();
  const result = await pool.query<{ run_id: string }>(
    `WITH inserted AS (
     INSERT INTO usage.llm_runs
     SELECT r.run_id, $2, r.project_id, $3, $4, r.ingested_ms, r.model_name, r.model_provider, r.input_tokens,
       r.output_tokens, r.cache_read, r.cache_creation, r.reasoning, r.total_tokens, r.cost_nanos,
       r.cost_source, $17::uuid, now()
     FROM unnest($1::uuid[], $6::uuid[], $7::bytea[], $8::bytea[], $9::bigint[], $10::bigint[],
       $11::bigint[], $12::bigint[], $13::bigint[], $14::bigint[], $15::bigint[], $16::text[],
       $5::bigint[])
       AS r (run_id, project_id, model_name, model_provider, input_tokens, output_tokens,
         cache_read, cache_creation, reasoning, total_tokens, cost_nanos, cost_source, ingested_ms)
     ON CONFLICT (run_id) DO NOTHING
     RETURNING *
   ), rolled AS (
     INSERT INTO usage.llm_daily
     SELECT * FROM (${llmDailyRowsSql('inserted', true)}) AS r
     -- One order for every writer: two replicas adding to the same rows wait, not deadlock.
     ORDER BY 1, 2, 3, 4
     ${ON_CONFLICT_ADD_SQL}
   )
   SELECT run_id::text FROM inserted`,
    [
      list.map(([runId]) => runId),
      batch.workspaceId,
      batch.userId,
      batch.apiKeyId,
      times,
      column((run) => projects.get(run.projectName) ?? null),
      column((run) => bytes(run.usage.modelName)),
      column((run) => bytes(run.usage.modelProvider)),
      column((run) => run.usage.inputTokens),
      column((run) => run.usage.outputTokens),
      column((run) => run.usage.cacheReadTokens),
      column((run) => run.usage.cacheCreationTokens),
      column((run) => run.usage.reasoningTokens),
      column((run) => run.usage.totalTokens),
      priced.map((price) => price.costNanos),
      priced.map((price) => price.source),
      claim,
    ],
  );
  const inserted = new Set(result.rows.map((row) => row.run_id));
  await landing.land(
    claim,
    list.flatMap(([runId, run], i) => {
      if (!inserted.has(runId)) return [];
      const { usage } = run;
      return [
        {
          runId,
          workspaceId: batch.workspaceId,
          projectId: projects.get(run.projectName) ?? '',
          userId: batch.userId,
          apiKeyId: batch.apiKeyId,
          ingestedMs: times[i] ?? now,
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          cacheReadTokens: usage.cacheReadTokens,
          cacheCreationTokens: usage.cacheCreationTokens,
          totalTokens: usage.totalTokens,
          costNanos: priced[i]?.costNanos ?? null,
        },
      ];
    }),
  );
  return { inserted: inserted.size };
}
