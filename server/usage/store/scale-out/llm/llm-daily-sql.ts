import { LLM_ROLLUP_MEASURES } from '@server/usage/model/llm-rollup';

/**
 * The daily rollup of LLM usage on Postgres, `usage.llm_daily` (migration 43; since migration 45
 * written for grouping `model` only, see `llm-clickhouse-tables.ts`): per (grouping,
 * workspace, UTC day since 1970, value) the sums of that day's runs, where the value is `dim_id`
 * or, for grouping `model`, (`model_name`, `model_provider`). `dim_key` is the value as one
 * non-null text (Postgres 14 has no NULLS NOT DISTINCT), so one upsert adds to the row whatever
 * the replica. The measures are `LLM_ROLLUP_MEASURES`.
 */
export const LLM_DAILY_TABLE_SQL = `
  CREATE TABLE usage.llm_daily (
    grouping text NOT NULL,
    workspace_id uuid NOT NULL,
    epoch_day integer NOT NULL,
    dim_key text NOT NULL,
    dim_id uuid,
    model_name bytea,
    model_provider bytea,
    ${LLM_ROLLUP_MEASURES.map((m) => `${m} bigint NOT NULL`).join(',\n    ')},
    PRIMARY KEY (grouping, workspace_id, epoch_day, dim_key)
  );`;

const hex = (column: string) => `coalesce(encode(${column}, 'hex'), '-')`;

const GROUPINGS: [string, string, string][] = [
  ['workspace', 'workspace_id', 'NULL::bytea, NULL::bytea'],
  ['project', 'project_id', 'NULL::bytea, NULL::bytea'],
  ['user', 'user_id', 'NULL::bytea, NULL::bytea'],
  ['api_key', 'api_key_id', 'NULL::bytea, NULL::bytea'],
  ['model', 'NULL::uuid', 'model_name, model_provider'],
];

/**
 * The daily rollup rows of the runs in `source` (a table or CTE shaped as `usage.llm_runs`),
 * in `llm_daily`'s column order, one per key: of every grouping, or of the model grouping alone
 * (`modelOnly`: the dimension groupings are read from ClickHouse).
 */
export function llmDailyRowsSql(source: string, modelOnly = false): string {
  return GROUPINGS.filter(([grouping]) => !modelOnly || grouping === 'model')
    .map(
      ([grouping, dim, model]) =>
        `SELECT '${grouping}', workspace_id, floor(ingested_ms / 86400000.0)::integer,
        ${grouping === 'model' ? `${hex('model_name')} || ':' || ${hex('model_provider')}` : `coalesce(${dim}::text, '')`},
        ${dim}, ${model},
        sum(input_tokens)::bigint, sum(output_tokens)::bigint, sum(cache_read_tokens)::bigint,
        sum(cache_creation_tokens)::bigint, sum(total_tokens)::bigint,
        coalesce(sum(cost_nanos), 0)::bigint, count(cost_nanos), count(*) - count(cost_nanos),
        count(*) FILTER (WHERE cost_source = 'declared')
      FROM ${source}
      GROUP BY 2, 3, ${grouping === 'model' ? 'model_name, model_provider' : dim}`,
    )
    .join('\n    UNION ALL ');
}

/** Adds the rows of `llmDailyRowsSql` to the ones stored (a new key starts at them). */
export const ON_CONFLICT_ADD_SQL = `ON CONFLICT (grouping, workspace_id, epoch_day, dim_key)
  DO UPDATE SET ${LLM_ROLLUP_MEASURES.map((m) => `${m} = usage.llm_daily.${m} + EXCLUDED.${m}`).join(', ')}`;

/** The migration for stores whose runs predate the rollup: the table, built from the runs. */
export const LLM_DAILY_MIGRATION_SQL = `${LLM_DAILY_TABLE_SQL}
  INSERT INTO usage.llm_daily ${llmDailyRowsSql('usage.llm_runs')};`;
