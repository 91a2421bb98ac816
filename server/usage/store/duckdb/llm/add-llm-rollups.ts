import type { DuckDBConnection } from '@duckdb/node-api';
import { LLM_ROLLUP_MEASURES, type LlmRollupIncrement } from '@server/usage/model/llm-rollup';
import { PERIOD_DAYS } from '../cumulative-rollup';
import { CUMULATIVE_MEASURES, type CumulativeMeasure } from './llm-rollup-sql';

const KEY_TYPE = `"grouping": "VARCHAR", "workspace_id": "VARCHAR", "dim_id": "VARCHAR",
  "model_name": "VARCHAR", "model_provider": "VARCHAR"`;

const matches = (table: string) => `${table}.grouping = i.grouping
  AND ${table}.workspace_id = i.workspace_id::UUID
  AND ${table}.dim_id IS NOT DISTINCT FROM i.dim_id::UUID
  AND ${table}.model_name IS NOT DISTINCT FROM i.model_name
  AND ${table}.model_provider IS NOT DISTINCT FROM i.model_provider`;

const DAILY = `(SELECT unnest(from_json($1::JSON, '[{${KEY_TYPE}, "epoch_day": "INTEGER",
  ${LLM_ROLLUP_MEASURES.map((m) => `"${m}": "BIGINT"`).join(', ')}}]'), recursive := true))`;

/** Not recursive: the measures are lists. */
const CUMULATIVE = `(SELECT unnest(s, recursive := false) FROM (SELECT unnest(from_json($1::JSON,
  '[{${KEY_TYPE}, "period": "INTEGER",
  ${CUMULATIVE_MEASURES.map((m) => `"${m}": "BIGINT[]"`).join(', ')}}]')) AS s))`;

const DAY = "(DATE '1970-01-01' + i.epoch_day)";

/**
 * Keys of rollup rows known to exist (rows are never deleted), so a batch whose rows all exist
 * skips the two "create at zero" statements. Filled in by the caller once its transaction
 * committed.
 */
export type KnownLlmRollupRows = Set<string>;

const dailyKey = (i: LlmRollupIncrement) =>
  JSON.stringify([
    i.grouping,
    i.epoch_day,
    i.workspace_id,
    i.dim_id,
    i.model_name,
    i.model_provider,
  ]);
const cumulativeKey = (i: LlmRollupIncrement) =>
  JSON.stringify([
    i.grouping,
    Math.floor(i.epoch_day / PERIOD_DAYS),
    i.workspace_id,
    i.dim_id,
    i.model_name,
    i.model_provider,
  ]);

/**
 * Adds new runs' increments to `llm_daily` and `llm_cumulative`, in the caller's transaction:
 * missing rows are created at zero, then every row gets its sums, set-based whatever the number
 * of increments. Returns the keys of the rows it created, for the caller to add to `known` once
 * committed.
 */
export async function addToLlmRollups(
  connection: DuckDBConnection,
  increments: readonly LlmRollupIncrement[],
  known: ReadonlySet<string>,
): Promise<string[]> {
  if (increments.length === 0) return [];
  const daily = JSON.stringify(increments);
  const freshDays = increments.filter((i) => !known.has(dailyKey(i)));
  if (freshDays.length > 0) {
    await connection.run(
      `INSERT INTO llm_daily
       SELECT i.grouping, ${DAY}, i.workspace_id::UUID, i.dim_id::UUID, i.model_name,
         i.model_provider, ${LLM_ROLLUP_MEASURES.map(() => '0').join(', ')}
       FROM ${DAILY} i
       WHERE NOT EXISTS (SELECT 1 FROM llm_daily d WHERE ${matches('d')} AND d.day = ${DAY})`,
      [JSON.stringify(freshDays)],
    );
  }
  await connection.run(
    `UPDATE llm_daily d SET ${LLM_ROLLUP_MEASURES.map((m) => `${m} = d.${m} + i.${m}`).join(', ')}
     FROM ${DAILY} i WHERE ${matches('d')} AND d.day = ${DAY}`,
    [daily],
  );
  const deltas = cumulativeDeltas(increments);
  const freshPeriods = deltas.filter((delta) => !known.has(delta.key));
  if (freshPeriods.length > 0) {
    await connection.run(
      `INSERT INTO llm_cumulative
       SELECT i.grouping, i.period, i.workspace_id::UUID, i.dim_id::UUID, i.model_name,
         i.model_provider,
         ${CUMULATIVE_MEASURES.map(() => `list_transform(range(${PERIOD_DAYS + 1}), k -> 0::BIGINT)`).join(', ')}
       FROM ${CUMULATIVE} i
       WHERE NOT EXISTS (SELECT 1 FROM llm_cumulative c
         WHERE ${matches('c')} AND c.period = i.period)`,
      [JSON.stringify(freshPeriods)],
    );
  }
  const days = new Set(increments.map((i) => i.epoch_day));
  if (days.size === 1) {
    // The common case (ingestion counts a request at one instant): scalars, not lists, to add.
    const [day = 0] = days;
    const period = Math.floor(day / PERIOD_DAYS);
    // cum[k + 1] counts the period's first k days, so these runs count from k = offset + 1 on.
    const first = day - period * PERIOD_DAYS + 2;
    await connection.run(
      `UPDATE llm_cumulative c
       SET ${CUMULATIVE_MEASURES.map((m) => `${m} = list_transform(c.${m}, (x, k) -> x + CASE WHEN k >= ${first} THEN i.${m} ELSE 0 END)`).join(', ')}
       FROM ${DAILY} i WHERE ${matches('c')} AND c.period = ${period}`,
      [daily],
    );
  } else {
    await connection.run(
      `UPDATE llm_cumulative c
       SET ${CUMULATIVE_MEASURES.map((m) => `${m} = list_transform(c.${m}, (x, k) -> x + i.${m}[k])`).join(', ')}
       FROM ${CUMULATIVE} i WHERE ${matches('c')} AND c.period = i.period`,
      [JSON.stringify(deltas)],
    );
  }
  return [...freshDays.map(dailyKey), ...freshPeriods.map((delta) => delta.key)];
}

type CumulativeDelta = Pick<
  LlmRollupIncrement,
  'grouping' | 'workspace_id' | 'dim_id' | 'model_name' | 'model_provider'
> & { period: number; key: string } & Record<CumulativeMeasure, number[]>;

/**
 * Per cumulative row, what each list element gains: element `k + 1` (1-based) counts the
 * period's first `k` days, so a day at offset `o` adds to elements `o + 2` on (index `o + 1` on
 * here, 0-based).
 */
function cumulativeDeltas(increments: readonly LlmRollupIncrement[]): CumulativeDelta[] {
  const rows = new Map<string, CumulativeDelta>();
  const zeros = () => new Array<number>(PERIOD_DAYS + 1).fill(0);
  for (const increment of increments) {
    const period = Math.floor(increment.epoch_day / PERIOD_DAYS);
    const offset = increment.epoch_day - period * PERIOD_DAYS;
    const { grouping, workspace_id, dim_id, model_name, model_provider } = increment;
    const key = cumulativeKey(increment);
    const row = rows.get(key) ?? {
      grouping,
      period,
      key,
      workspace_id,
      dim_id,
      model_name,
      model_provider,
      input_tokens: zeros(),
      output_tokens: zeros(),
      cache_read_tokens: zeros(),
      cache_creation_tokens: zeros(),
      total_tokens: zeros(),
      cost_nanos: zeros(),
      priced_runs: zeros(),
      unpriced_runs: zeros(),
    };
    for (const m of CUMULATIVE_MEASURES) {
      const list = row[m];
      for (let index = offset + 1; index <= PERIOD_DAYS; index += 1) {
        list[index] = (list[index] ?? 0) + increment[m];
      }
    }
    rows.set(key, row);
  }
  return [...rows.values()];
}
