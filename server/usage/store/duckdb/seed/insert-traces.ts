import type { DuckDBConnection } from '@duckdb/node-api';
import { REBUILD_CUMULATIVE_SQL } from '../cumulative-rollup';
import { TIER_COLUMN } from '../dimension-sql';

/**
 * Generates the traces of days `[fromDay, toDay)` inside DuckDB (no row passes through JS).
 * Every choice comes from `hash(day, i, seed)`, so a trace's id, time and dimensions depend only
 * on its day and number: deterministic across runs. Per trace: workspace by weighted slot,
 * project and API key uniformly within it (3% without a key), user uniformly within it (5%
 * without a user), time uniform over the day or (40%) within 08:00-18:00 UTC.
 * Rows at or after `endIso` (the seeding moment, for the demo) are skipped. A trace has its
 * project's retention tier (every third project of a workspace is long-lived).
 */
const GENERATE_TRACES = `
INSERT INTO traces
WITH hashed AS (
  -- 63-bit BIGINT hashes: UBIGINT arithmetic would widen to HUGEINT, which is ~15x slower.
  SELECT day_idx, day, i, (hash(day_idx, i, $1) >> 1)::BIGINT AS h1,
    (hash(i, day_idx, $1 + 1) >> 1)::BIGINT AS h2 FROM seed_numbered
), placed AS (
  SELECT day_idx, i, w.idx AS ws_idx, w.id AS workspace_id,
    ((h1 // 1000) % w.n_projects)::INTEGER AS project_idx,
    CASE WHEN (h2 // 65536) % 20 <> 0 THEN ((h2 // 1310720) % w.n_users)::INTEGER END AS user_idx,
    CASE WHEN (h2 // 1000000000) % 100 >= 3 THEN (h2 % w.n_keys)::INTEGER END AS key_idx,
    make_timestamp(epoch_us(day::TIMESTAMP) + 1000 * CASE WHEN (h2 // 1000000000000) % 10 < 4
      THEN 28800000 + (h1 // 1000000) % 36000000
      ELSE (h1 // 1000000) % 86400000 END) AS start_time
  FROM hashed
  JOIN seed_slots s ON s.slot = (h1 % 1000)::INTEGER
  JOIN seed_ws w ON w.idx = s.ws_idx
)
SELECT md5(concat($1, ':', day_idx, ':', i))::UUID, workspace_id, p.id, u.id, k.id, start_time,
  -- The project's retention tier, as insert-dimensions.ts sets it.
  CASE WHEN p.local_idx % 3 = 0 THEN 'longlived' ELSE 'shortlived' END
FROM placed
JOIN seed_projects p ON p.ws_idx = placed.ws_idx AND p.local_idx = placed.project_idx
LEFT JOIN seed_users u ON u.ws_idx = placed.ws_idx AND u.local_idx = placed.user_idx
LEFT JOIN seed_keys k ON k.ws_idx = placed.ws_idx AND k.local_idx = placed.key_idx
WHERE start_time < $2::TIMESTAMP
`;

export async function insertTraces(
  connection: DuckDBConnection,
  fromDay: number,
  toDay: number,
  seed: number,
  endIso: string,
): Promise<void> {
  // Materialised first: a scan of millions of rows runs on every core, whereas a pipeline fed
  // by the few rows of seed_days would run on one.
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE seed_numbered AS
     SELECT day_idx, day, unnest(range(n)) AS i FROM seed_days WHERE day_idx >= $1 AND day_idx < $2`,
    [fromDay, toDay],
  );
  await connection.run(GENERATE_TRACES, [seed, endIso]);
  await connection.run('DROP TABLE seed_numbered');
}

/**
 * Rebuilds `usage_daily` from `traces`, one grouping after the other, each in day order so the
 * table's row groups stay sorted by (grouping, day); then `usage_cumulative` from `usage_daily`.
 */
export async function rebuildDailyRollups(connection: DuckDBConnection): Promise<void> {
  await connection.run('DELETE FROM usage_daily');
  const dimColumn = {
    workspace: 'workspace_id',
    project: 'project_id',
    user: 'user_id',
    api_key: 'api_key_id',
    // Retention tiers: group_by=trace_tier reads the rollups like any grouping.
    trace_tier: TIER_COLUMN,
  };
  for (const [grouping, column] of Object.entries(dimColumn)) {
    await connection.run(
      `INSERT INTO usage_daily
       SELECT $1, start_time::DATE AS day, workspace_id, ${column} AS dim_id, count(*) FROM traces
       GROUP BY ALL ORDER BY day, workspace_id, dim_id`,
      [grouping],
    );
  }
  await connection.run(REBUILD_CUMULATIVE_SQL);
}
