import { DuckDBInstance } from '@duckdb/node-api';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import type { LlmGroupBy } from '@contracts/usage/llm-usage-schema';
import { strideForRange } from '@contracts/usage/stride';
import { DAY_MS } from '@contracts/usage/time';
import { createUsageRenderer } from '@server/usage/http/render-usage';
import { createLlmJsonWriter } from '@server/usage/http/render-llm-usage';
import { getDimensionCatalog } from '@server/usage/queries/get-dimension-catalog';
import { getUsage } from '@server/usage/queries/get-usage';
import type { SeedProfile } from '@server/usage/seed/seed-profiles';
import { ensureLlmTables } from '@server/usage/store/duckdb/llm/llm-tables';
import {
  BACKFILL_LLM_DAILY_SQL,
  REBUILD_LLM_CUMULATIVE_SQL,
} from '@server/usage/store/duckdb/llm/llm-rollup-sql';
import type { UsageStore } from '@server/usage/store/usage-store';
import { percentiles } from './bench-measure';

/** The models of the bench's LLM runs: name, provider, nano-dollars per token (null: unpriced). */
export const BENCH_LLM_MODELS: [string, string, number | null][] = [
  ['gpt-4o', 'openai', 2_500],
  ['gpt-4o-mini', 'openai', 150],
  ['gpt-4.1', 'openai', 2_000],
  ['claude-sonnet-4-20250514', 'anthropic', 3_000],
  ['claude-3-5-haiku-latest', 'anthropic', 800],
  ['gemini-2.5-flash', 'google_genai', 300],
  ['gemini-2.5-pro', 'google_genai', 1_250],
  ['llama-3.1-70b-instruct', 'fireworks', null],
];

/**
 * Gives a DuckDB bench dataset its LLM usage when it has none: one LLM run per trace (same
 * instant, workspace, project, user and key; model and token counts a function of the run id),
 * then the rollups built from them as a store that predates them would be. Runs on the file
 * alone, before the store opens it.
 */
export async function seedDuckDbBenchLlmRuns(
  file: string,
  log: (message: string) => void,
): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  try {
    const connection = await instance.connect();
    await ensureLlmTables(connection);
    const found = await connection.runAndReadAll('SELECT count(*)::DOUBLE FROM llm_runs');
    if (Number(found.getRowsJS()[0]?.[0] ?? 0) > 0) return;
    const started = performance.now();
    const models = BENCH_LLM_MODELS.map(
      ([name, provider, price], i) => `(${i}, '${name}', '${provider}', ${price ?? 'NULL'})`,
    ).join(', ');
    await connection.run('BEGIN TRANSACTION');
    await connection.run(
      `INSERT INTO llm_runs
       SELECT t.run_id, t.workspace_id, t.project_id, t.user_id, t.api_key_id, t.start_time,
         m.name, m.provider, t.input, t.output, t.input // 4, 0, 0, t.input + t.output,
         (t.input + t.output) * m.price,
         CASE WHEN m.price IS NULL THEN 'unpriced' ELSE 'price_map' END
       FROM (SELECT *, (200 + h % 3000)::BIGINT AS input, (20 + (h >> 12) % 700)::BIGINT AS output,
           (h >> 24) % ${BENCH_LLM_MODELS.length} AS model
         FROM (SELECT *, hash(run_id) AS h FROM traces)) t
       JOIN (VALUES ${models}) m(idx, name, provider, price) ON m.idx = t.model`,
    );
    await connection.run(BACKFILL_LLM_DAILY_SQL);
    await connection.run(REBUILD_LLM_CUMULATIVE_SQL);
    await connection.run('COMMIT');
    const count = await connection.runAndReadAll('SELECT count(*)::DOUBLE FROM llm_runs');
    log(
      `built ${Number(count.getRowsJS()[0]?.[0] ?? 0)} LLM runs and their rollups in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    connection.closeSync();
  } finally {
    instance.closeSync();
  }
}

/** The LLM figures beside the traces' (p50 ms of the JSON endpoint's work). */
export interface LlmFigures {
  tracesYearUserP50: number;
  llmYearUserP50: number;
  llmYearModelP50: number;
}

/**
 * A year of LLM usage by user and by model against a year of traces by user: the JSON
 * endpoint's work after validation (query, body written), one request of each in turn so a
 * change of machine load weighs on all three alike.
 */
export async function benchLlmQueries(
  backend: UsageStore,
  profile: SeedProfile,
  runs: number,
): Promise<{ lines: string[]; figures: LlmFigures }> {
  const workspaceIds = [...(await getDimensionCatalog(backend.facts, 'workspace')).ids].sort();
  const endMs = profile.toMs;
  const startMs = endMs - 365 * DAY_MS;
  const grid = createBucketGrid(startMs, endMs, strideForRange(startMs, endMs));
  const renderer = createUsageRenderer();
  const traces = async () => {
    const answer = await getUsage(backend.facts, {
      grid,
      floorMs: null,
      workspaceIds,
      groupBy: 'user',
    });
    return renderer.json(answer.plan, answer.matrix).length;
  };
  const llmJson = createLlmJsonWriter();
  const llm = (groupBy: LlmGroupBy) => async () => {
    const plan = { grid, floorMs: null, workspaceIds, groupBy };
    return llmJson(plan, await backend.llm.answer(plan)).length;
  };
  const work = [traces, llm('user'), llm('model')];
  const samples: number[][] = work.map(() => []);
  const sizes: number[] = work.map(() => 0);
  for (let run = 0; run <= runs; run += 1) {
    for (const [i, measure] of work.entries()) {
      const started = performance.now();
      sizes[i] = await measure();
      // The first round warms up.
      if (run > 0) samples[i]?.push(performance.now() - started);
    }
  }
  const [tracesUser, llmUser, llmModel] = samples.map((list) => percentiles(list));
  const figures: LlmFigures = {
    tracesYearUserP50: tracesUser?.p50 ?? NaN,
    llmYearUserP50: llmUser?.p50 ?? NaN,
    llmYearModelP50: llmModel?.p50 ?? NaN,
  };
  const row = (label: string, i: number) => {
    const p = [tracesUser, llmUser, llmModel][i];
    const ratio = (p?.p50 ?? NaN) / figures.tracesYearUserP50;
    return `| ${label} | ${((sizes[i] ?? 0) / 1e6).toFixed(2)} | ${p?.p50.toFixed(1)} | ${p?.p95.toFixed(1)} | ${ratio.toFixed(2)}x |`;
  };
  const lines = [
    '',
    `| 1 year, ${backend.kind}, one request of each in turn | JSON MB | p50 ms | p95 ms | of traces by user |`,
    '|---|---:|---:|---:|---:|',
    row('traces, group_by=user', 0),
    row('kind=llm_usage, group_by=user', 1),
    row('kind=llm_usage, group_by=model', 2),
  ];
  return { lines, figures };
}
