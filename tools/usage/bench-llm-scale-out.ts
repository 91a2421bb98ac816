import pg from 'pg';
import { LLM_ROLLUP_MEASURES } from '@server/usage/model/llm-rollup';
import { openClickHouse, tsvRows } from '@server/usage/store/scale-out/clickhouse/client';
import type { ScaleOutOptions } from '@server/usage/store/scale-out/scale-out-usage-store';
import { BENCH_LLM_MODELS } from './bench-llm';

/** The value of each grouping's rows: ClickHouse expressions for `dim_key` and `dim_id`. */
const GROUPINGS: { grouping: string; key: string; id: string; groupBy: string }[] = [
  {
    grouping: 'workspace',
    key: 'toString(workspace_id)',
    id: 'toString(workspace_id)',
    groupBy: 'workspace_id',
  },
  {
    grouping: 'project',
    key: 'toString(project_id)',
    id: 'toString(project_id)',
    groupBy: 'project_id',
  },
  {
    grouping: 'user',
    key: "ifNull(toString(user_id), '')",
    id: 'toString(user_id)',
    groupBy: 'user_id',
  },
  {
    grouping: 'api_key',
    key: "ifNull(toString(api_key_id), '')",
    id: 'toString(api_key_id)',
    groupBy: 'api_key_id',
  },
  // As Postgres keys a model: hex of its name and provider (lower case, as `encode(…, 'hex')`).
  {
    grouping: 'model',
    key: "concat(lower(hex(model_name)), ':', lower(hex(model_provider)))",
    id: 'NULL',
    groupBy: 'model_name, model_provider',
  },
];

const list = (values: readonly (string | number)[]) =>
  `[${values.map((value) => (typeof value === 'number' ? value : `'${value}'`)).join(', ')}]`;

/**
 * One LLM run per trace of `[from, to)`, as the DuckDB seed makes them (same day, workspace,
 * project, user and key; model and token counts a function of the run id, here through
 * ClickHouse's `cityHash64`), summed per (workspace, day, value) of `grouping`.
 */
function dailySumsSql(
  { key, id, groupBy, grouping }: (typeof GROUPINGS)[number],
  from: string,
  to: string,
): string {
  return `SELECT '${grouping}', toString(workspace_id), toUInt32(day), ${key}, ${id},
      ${grouping === 'model' ? 'model_name, model_provider' : 'NULL, NULL'},
      sum(input), sum(output), sum(intDiv(input, 4)), 0, sum(input + output),
      sum(if(priced, (input + output) * price, 0)), sum(priced), sum(1 - priced), 0
    FROM (
      SELECT workspace_id, project_id, user_id, api_key_id, day,
        cityHash64(toString(run_id)) AS h, 200 + h % 3000 AS input, 20 + intDiv(h, 4096) % 700 AS output,
        intDiv(h, 16777216) % ${BENCH_LLM_MODELS.length} AS model,
        ${list(BENCH_LLM_MODELS.map(([name]) => name))}[model + 1] AS model_name,
        ${list(BENCH_LLM_MODELS.map(([, provider]) => provider))}[model + 1] AS model_provider,
        ${list(BENCH_LLM_MODELS.map(([, , price]) => price ?? 0))}[model + 1] AS price,
        ${list(BENCH_LLM_MODELS.map(([, , price]) => (price === null ? 0 : 1)))}[model + 1] AS priced
      FROM traces
      WHERE day >= toDate('${from}') AND day < toDate('${to}')
    )
    GROUP BY workspace_id, day, ${groupBy}`;
}

/** TSV's NULL, as ClickHouse writes it. */
const cell = (value: string | undefined) => (value === undefined || value === '\\N' ? null : value);

/**
 * Gives a scale-out bench dataset its LLM usage when it has none: the daily rollup
 * (`usage.llm_daily`) of one LLM run per ClickHouse trace, summed in ClickHouse a month at a time
 * and copied into Postgres. The runs themselves are not stored (`usage.llm_runs` stays empty):
 * the bench's year is whole UTC days, which the rollup answers alone.
 */
export async function seedScaleOutBenchLlmDaily(
  options: ScaleOutOptions,
  log: (message: string) => void,
): Promise<void> {
  const pool = new pg.Pool({ connectionString: options.databaseUri, max: 2 });
  const clickhouse = await openClickHouse(options.clickhouse);
  try {
    const found = await pool.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM (SELECT 1 FROM usage.llm_daily LIMIT 1) AS any_row',
    );
    if (Number(found.rows[0]?.n ?? 0) > 0) return;
    const started = performance.now();
    const months = (
      await tsvRows(clickhouse, 'SELECT DISTINCT toString(toStartOfMonth(day)) FROM traces')
    )
      .map(([month]) => month ?? '')
      .sort();
    let stored = 0;
    for (const [index, from] of months.entries()) {
      const to = months[index + 1] ?? '2100-01-01';
      for (const grouping of GROUPINGS) {
        const rows = await tsvRows(clickhouse, dailySumsSql(grouping, from, to));
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
    }
    await pool.query('ANALYZE usage.llm_daily');
    log(
      `built ${stored} LLM daily rollup rows from the ClickHouse traces in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await clickhouse.close();
    await pool.end();
  }
}
