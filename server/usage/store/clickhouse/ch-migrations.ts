import type { ClickHouseClient } from '@clickhouse/client';

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
 */
const NIL = "toUUID('00000000-0000-0000-0000-000000000000')";

const rollupView = (grouping: string, column: string, nullable: boolean) => `
  CREATE MATERIALIZED VIEW IF NOT EXISTS usage_daily_${grouping} TO usage_daily AS
  SELECT '${grouping}' AS grouping, workspace_id, day,
    ${nullable ? `toUInt8(isNotNull(${column}))` : 'toUInt8(1)'} AS has_dim,
    ${nullable ? `ifNull(${column}, ${NIL})` : column} AS dim_id, count() AS traces
  FROM traces GROUP BY workspace_id, day, has_dim, dim_id`;

const MIGRATIONS: readonly { version: number; name: string; statements: string[] }[] = [
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
      rollupView('workspace', 'workspace_id', false),
      rollupView('project', 'project_id', false),
      rollupView('user', 'user_id', true),
      rollupView('api_key', 'api_key_id', true),
    ],
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
    for (const query of migration.statements) await client.command({ query });
    await client.insert({
      table: 'schema_migrations',
      values: [{ version: migration.version, name: migration.name }],
      format: 'JSONEachRow',
    });
  }
}
