import type { ClickHouseClient } from '@clickhouse/client';
import type { GroupBy } from '@contracts/usage/usage-schema';
import { dimensionColumns } from './clickhouse/dimension-columns';
import { periodOf } from './clickhouse/periods';
import { LLM_CLICKHOUSE_STATEMENTS } from './llm/llm-clickhouse-tables';

/**
 * The ClickHouse tables, as SQL that ClickHouse 18.16 (Debian 12's package, the CI floor) and
 * current releases both accept: no LowCardinality, DateTime64, Nullable sort keys, query
 * parameters or lightweight DELETE. Each statement is `IF NOT EXISTS`; applied versions are
 * recorded in `schema_migrations`. Replicas run this under the Postgres migration lock.
 *
 * - `traces`: one row per billed trace. Plain MergeTree: rows arrive once each, because only runs
 *   newly claimed in Postgres are inserted (`billed-runs.ts`), so `count()` is exact without
 *   FINAL. Ordered by (workspace, day, run id) for tenant-and-time reads; `start_ms` is epoch
 *   milliseconds (18.16 has no DateTime64), `day` its UTC date.
 * - `usage_daily`: traces per (grouping, workspace, UTC day, dimension value), a SummingMergeTree
 *   fed by one materialized view per grouping on every insert into `traces`; always read with
 *   `sum()` (parts merge lazily). `has_dim = 0` is the NULL value (no Nullable in a sort key).
 * - Migration 2 (retention tiers): `traces.trace_tier` (1 = long-lived, 0 =
 *   short-lived, what every earlier trace was) and `usage_daily_tiered`, the daily rollup with
 *   the tier in its key, so a `trace_tier` filter or grouping is answered from a rollup.
 *   `usage_daily` stays, fed as before: queries without a tier read it, as it has fewer rows
 *   (a user active in both tiers on a day has one row there, two here). Existing rows are
 *   copied in as short-lived (only into an empty table, so the step can run again).
 * - Migration 3 (read latency): `usage_periods`, the counts of `usage_daily` held as
 *   one row per (grouping, workspace, 128-day period, value), its days in a nested `dayMap` of
 *   UTC day numbers and counts, in ascending day order (`sumMap` writes them so, and the
 *   merges of a `…Map` column keep them so; the reads count on it). A year by user reads 20 k
 *   rows instead of 1.6 M on dataset M and sums each row's days into its buckets with array
 *   functions, instead of grouping 1.6 M (bucket, UUID) keys. Granules of 256 rows: a row holds
 *   up to 128 days, and with the default 8,192 a year by workspace read every user's days
 *   too (30 k rows, 14 MB, on S). A count is a `UInt32`: at most
 *   4.29 billion traces of one value on one day. Fed straight from `traces`: 18.16 does not
 *   run a view on rows another view wrote. Existing days are copied from `usage_daily` into an
 *   empty table first, as migration 2 does.
 * - Migration 4 (LLM usage): `llm_runs` and `llm_periods`, see `llm/llm-clickhouse-tables.ts`.
 *   The runs Postgres held before are sent by the landing sweep, not copied here.
 */

const rollupView = (grouping: GroupBy) => `
  CREATE MATERIALIZED VIEW IF NOT EXISTS usage_daily_${grouping} TO usage_daily AS
  SELECT '${grouping}' AS grouping, workspace_id, day,
    ${dimensionColumns(grouping)}, count() AS traces
  FROM traces GROUP BY workspace_id, day, has_dim, dim_id`;

const tieredView = (grouping: GroupBy) => `
  CREATE MATERIALIZED VIEW IF NOT EXISTS usage_daily_tiered_${grouping} TO usage_daily_tiered AS
  SELECT '${grouping}' AS grouping, workspace_id, day, trace_tier AS tier,
    ${dimensionColumns(grouping)}, count() AS traces
  FROM traces GROUP BY workspace_id, day, tier, has_dim, dim_id`;

/** A statement, or a step that decides by itself whether there is anything left to do. */
type Step = string | ((client: ClickHouseClient) => Promise<void>);

const count = async (client: ClickHouseClient, query: string) => {
  const result = await client.query({ query, format: 'TabSeparated' });
  return Number((await result.text()).trim() || 0);
};

/** `ADD COLUMN` when the column is missing (18.16 has no `ADD COLUMN IF NOT EXISTS`). */
const addColumn =
  (table: string, column: string, type: string): Step =>
  async (client) => {
    const present = await count(
      client,
      `SELECT count() FROM system.columns WHERE database = currentDatabase()
       AND table = '${table}' AND name = '${column}'`,
    );
    if (present === 0) {
      await client.command({ query: `ALTER TABLE ${table} ADD COLUMN ${column} ${type}` });
    }
  };

/** Copies the old rollup's rows (all short-lived) into an empty `usage_daily_tiered`. */
const copyOldRollup: Step = async (client) => {
  const old = await count(
    client,
    `SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = 'usage_daily'`,
  );
  if (old === 0 || (await count(client, 'SELECT count() FROM usage_daily_tiered')) > 0) return;
  await client.command({
    query: `INSERT INTO usage_daily_tiered
      SELECT grouping, workspace_id, day, toUInt8(0), has_dim, dim_id, sum(traces)
      FROM usage_daily GROUP BY grouping, workspace_id, day, has_dim, dim_id`,
  });
};

/**
 * `dayMap` as (days, counts) arrays from `sumMap` (18.16 takes no extra columns in a view's
 * SELECT, so the map is spelled twice; ClickHouse computes it once).
 */
const dayMapColumns = (day: string, traces: string) => {
  const map = `sumMap([toUInt16(${day})], [${traces}])`;
  return `tupleElement(${map}, 1) AS \`dayMap.day\`, tupleElement(${map}, 2) AS \`dayMap.traces\``;
};

const periodView = (grouping: GroupBy) => `
  CREATE MATERIALIZED VIEW IF NOT EXISTS usage_periods_${grouping} TO usage_periods AS
  SELECT '${grouping}' AS grouping, workspace_id, ${periodOf('day')} AS period,
    ${dimensionColumns(grouping)},
    ${dayMapColumns('day', 'toUInt32(1)')}
  FROM traces GROUP BY grouping, workspace_id, period, has_dim, dim_id`;

/** Copies the daily rollup's rows into an empty `usage_periods`. */
const copyDailyIntoPeriods: Step = async (client) => {
  if ((await count(client, 'SELECT count() FROM usage_periods')) > 0) return;
  await client.command({
    query: `INSERT INTO usage_periods
      SELECT grouping, workspace_id, ${periodOf('day')} AS period, has_dim, dim_id,
        ${dayMapColumns('day', 'toUInt32(traces)')}
      FROM usage_daily GROUP BY grouping, workspace_id, period, has_dim, dim_id`,
  });
};

const MIGRATIONS: readonly { version: number; name: string; statements: Step[] }[] = [
  {
    version: 1,
    name: 'traces and daily rollup',
    statements: [
      `CREATE TABLE IF NOT EXISTS traces (
        run_id UUID, workspace_id UUID, project_id UUID,
        user_id Nullable(UUID), api_key_id Nullable(UUID),
        start_ms Int64, day Date
      ) ENGINE = MergeTree PARTITION BY toYYYYMM(day) ORDER BY (workspace_id, day, run_id)`,
      `CREATE TABLE IF NOT EXISTS usage_daily (
        grouping String, workspace_id UUID, day Date, has_dim UInt8, dim_id UUID, traces UInt64
      ) ENGINE = SummingMergeTree(traces) PARTITION BY toYYYYMM(day)
        ORDER BY (grouping, workspace_id, day, has_dim, dim_id)`,
      rollupView('workspace'),
      rollupView('project'),
      rollupView('user'),
      rollupView('api_key'),
    ],
  },
  {
    version: 2,
    name: 'retention tiers in traces and the daily rollup',
    statements: [
      addColumn('traces', 'trace_tier', 'UInt8 DEFAULT 0'),
      `CREATE TABLE IF NOT EXISTS usage_daily_tiered (
        grouping String, workspace_id UUID, day Date, tier UInt8, has_dim UInt8, dim_id UUID,
        traces UInt64
      ) ENGINE = SummingMergeTree(traces) PARTITION BY toYYYYMM(day)
        ORDER BY (grouping, workspace_id, day, tier, has_dim, dim_id)`,
      copyOldRollup,
      tieredView('workspace'),
      tieredView('project'),
      tieredView('user'),
      tieredView('api_key'),
    ],
  },
  {
    version: 3,
    name: 'daily counts per 128-day period',
    statements: [
      `CREATE TABLE IF NOT EXISTS usage_periods (
        grouping String, workspace_id UUID, period UInt16, has_dim UInt8, dim_id UUID,
        dayMap Nested(day UInt16, traces UInt32)
      ) ENGINE = SummingMergeTree PARTITION BY period
        ORDER BY (grouping, workspace_id, period, has_dim, dim_id)
        SETTINGS index_granularity = 256`,
      copyDailyIntoPeriods,
      periodView('workspace'),
      periodView('project'),
      periodView('user'),
      periodView('api_key'),
    ],
  },
  {
    version: 4,
    name: 'llm usage per 128-day period',
    statements: [...LLM_CLICKHOUSE_STATEMENTS],
  },
];

export async function migrateClickHouse(client: ClickHouseClient): Promise<void> {
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations (
      version UInt32, name String, applied_at DateTime DEFAULT now()
    ) ENGINE = ReplacingMergeTree ORDER BY version`,
  });
  const result = await client.query({
    query: 'SELECT DISTINCT version FROM schema_migrations',
    format: 'JSONEachRow',
  });
  const done = new Set((await result.json<{ version: number }>()).map((row) => row.version));
  for (const migration of MIGRATIONS) {
    if (done.has(migration.version)) continue;
    for (const step of migration.statements) {
      if (typeof step === 'string') await client.command({ query: step });
      else await step(client);
    }
    await client.insert({
      table: 'schema_migrations',
      values: [{ version: migration.version, name: migration.name }],
      format: 'JSONEachRow',
    });
  }
}
