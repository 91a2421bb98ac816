import pg from 'pg';
import { LLM_ROLLUP_MEASURES } from '@server/usage/model/llm-rollup';
import { openClickHouse, tsvRows } from '@server/usage/store/scale-out/clickhouse/client';
import type { GroupBy } from '@contracts/usage/usage-schema';
import {
  DIMENSION_COLUMNS,
  dimensionColumns,
} from '@server/usage/store/scale-out/clickhouse/dimension-columns';
import { periodOf } from '@server/usage/store/scale-out/clickhouse/periods';
import type { ScaleOutOptions } from '@server/usage/store/scale-out/scale-out-usage-store';
import { BENCH_LLM_MODELS } from './bench-llm';

/** The model grouping's rows in Postgres: `dim_key` as Postgres keys a model (hex of its name and provider, lower case, as `encode(…, 'hex')`). */
const MODEL_GROUPING = {
  grouping: 'model',
  key: "concat(lower(hex(model_name)), ':', lower(hex(model_provider)))",
  id: 'NULL',
  groupBy: 'model_name, model_provider',
};

const list = (values: readonly (string | number)[]) =>
  `[${values.map((value) => (typeof value === 'number' ? value : `'${value}'`)).join(', ')}]`;

/**
 * One LLM run per trace of `[from, to)`, as the DuckDB seed makes them (same day, workspace,
 * project, user and key; model and token counts a function of the run id, here through
 * ClickHouse's `cityHash64`).
 */
const benchRunsSql = (from: string, to: string) => `
  SELECT workspace_id, project_id, user_id, api_key_id, day,
    cityHash64(toString(run_id)) AS h, 200 + h % 3000 AS input, 20 + intDiv(h, 4096) % 700 AS output,
    intDiv(h, 16777216) % ${BENCH_LLM_MODELS.length} AS model,
    ${list(BENCH_LLM_MODELS.map(([name]) => name))}[model + 1] AS model_name,
    ${list(BENCH_LLM_MODELS.map(([, provider]) => provider))}[model + 1] AS model_provider,
    ${list(BENCH_LLM_MODELS.map(([, , price]) => price ?? 0))}[model + 1] AS price,
    ${list(BENCH_LLM_MODELS.map(([, , price]) => (price === null ? 0 : 1)))}[model + 1] AS priced
  FROM traces
  WHERE day >= toDate('${from}') AND day < toDate('${to}')`;

/** The bench runs of `[from, to)` summed per (workspace, day, model), as `usage.llm_daily` rows. */
function modelDailySumsSql(from: string, to: string): string {
  const { grouping, key, id, groupBy } = MODEL_GROUPING;
  return `SELECT '${grouping}', toString(workspace_id), toUInt32(day), ${key}, ${id},
      model_name, model_provider,
      sum(input), sum(output), sum(intDiv(input, 4)), 0, sum(input + output),
      sum(if(priced, (input + output) * price, 0)), sum(priced), sum(1 - priced), 0
    FROM (${benchRunsSql(from, to)})
    GROUP BY workspace_id, day, ${groupBy}`;
}

/**
 * The bench runs of `[from, to)` as `llm_periods` rows of a dimension grouping: the measures
 * `LLM_ANSWER_MEASURES` of each (workspace, period, value) per day, as its views write them.
 */
function periodRowsSql(grouping: GroupBy, from: string, to: string) {
  const measures = [
    'input',
    'output',
    'intDiv(input, 4)',
    '0',
    'input + output',
    'if(priced, (input + output) * price, 0)',
    'priced',
    '1 - priced',
  ].map((measure) => `[toUInt64(${measure})]`);
  return `INSERT INTO llm_periods
    SELECT '${grouping}', workspace_id, period, has_dim, dim_id,
      ${Array.from({ length: measures.length + 1 }, (_, i) => `tupleElement(m, ${i + 1})`).join(', ')}
    FROM (
      SELECT workspace_id, ${periodOf('day')} AS period, ${dimensionColumns(grouping)},
        sumMap([toUInt16(day)], ${measures.join(', ')}) AS m
      FROM (${benchRunsSql(from, to)})
      GROUP BY workspace_id, period, has_dim, dim_id)`;
}

/** TSV's NULL, as ClickHouse writes it. */
const cell = (value: string | undefined) => (value === undefined || value === '\\N' ? null : value);

/**
 * Gives a scale-out bench dataset its LLM usage when it has none, as the views and upserts of
 * one LLM run per ClickHouse trace would have left it: ClickHouse's `llm_periods` for the
 * dimension groupings, summed from the traces there in one statement each, and Postgres's daily
 * rollup for the model grouping (`usage.llm_daily`), summed in ClickHouse a month at a time and
 * copied. The runs themselves are not stored (`llm_runs` stays empty on both): the bench's year
 * is whole UTC days, which the rollups answer alone.
 */
export async function seedScaleOutBenchLlm(
  options: ScaleOutOptions,
  log: (message: string) => void,
): Promise<void> {
  const pool = new pg.Pool({ connectionString: options.databaseUri, max: 2 });
  const clickhouse = await openClickHouse(options.clickhouse);
  try {
    const found = await pool.query<{ n: string }>(
      `SELECT count(*)::text AS n
       FROM (SELECT 1 FROM usage.llm_daily WHERE grouping = 'model' LIMIT 1) AS any_row`,
    );
    const [[periods = '0'] = []] = await tsvRows(clickhouse, 'SELECT count() FROM llm_periods');
    const started = performance.now();
    if (Number(periods) === 0) {
      for (const grouping of Object.keys(DIMENSION_COLUMNS) as GroupBy[]) {
        await clickhouse.command({ query: periodRowsSql(grouping, '1970-01-01', '2100-01-01') });
      }
      log(`built llm_periods from the ClickHouse traces in ${seconds(started)} s`);
    }
    if (Number(found.rows[0]?.n ?? 0) > 0) return;
    const months = (
      await tsvRows(clickhouse, 'SELECT DISTINCT toString(toStartOfMonth(day)) FROM traces')
    )
      .map(([month]) => month ?? '')
      .sort();
    let stored = 0;
    for (const [index, from] of months.entries()) {
      const to = months[index + 1] ?? '2100-01-01';
      const rows = await tsvRows(clickhouse, modelDailySumsSql(from, to));
      if (rows.length === 0) continue;
      const columns = Array.from({ length: 7 + LLM_ROLLUP_MEASURES.length }, (_, column) =>
        rows.map((row) => cell(row[column])),
      );
      await pool.query(
        `INSERT INTO usage.llm_daily (grouping, workspace_id, epoch_day, dim_key, dim_id,
           model_name, model_provider, ${LLM_ROLLUP_MEASURES.join(', ')})
         SELECT g, w, d, k, i, convert_to(mn, 'UTF8'), convert_to(mp, 'UTF8'),
           ${LLM_ROLLUP_MEASURES.map((_, m) => `m${m}`).join(', ')}
         FROM unnest($1::text[], $2::uuid[], $3::int[], $4::text[], $5::uuid[], $6::text[],
           $7::text[], ${LLM_ROLLUP_MEASURES.map((_, m) => `$${8 + m}::bigint[]`).join(', ')})
           AS t(g, w, d, k, i, mn, mp, ${LLM_ROLLUP_MEASURES.map((_, m) => `m${m}`).join(', ')})`,
        columns,
      );
      stored += rows.length;
    }
    await pool.query('ANALYZE usage.llm_daily');
    log(`built ${stored} LLM daily rollup rows of models in ${seconds(started)} s`);
  } finally {
    await clickhouse.close();
    await pool.end();
  }
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
