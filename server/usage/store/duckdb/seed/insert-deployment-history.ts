import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * The demo's deployment history (kind=langsmith_deployments), generated inside DuckDB from the
 * seed's staging tables: the first two projects of every workspace are deployed agents, with
 * one row per agent and UTC hour from the profile's start to its end. Every figure comes from
 * `hash(hour, workspace, project, seed)`, so the history is deterministic, as the traces are:
 * - agent runs: by workspace weight, 1.6x in 08:00-18:00 UTC, 0.5x at weekends, growing over
 *   the year, with jitter; nodes executed: 2 to 4 per run;
 * - replicas: one, a second in busy hours, a third about one hour in 17; uptime = replicas x the
 *   hour (the last hour cut at the end).
 */
const GENERATE_DEPLOYMENT_HISTORY = `
INSERT INTO deployment_usage
WITH hours AS (
  SELECT unnest(generate_series(date_trunc('hour', $1::TIMESTAMP), $2::TIMESTAMP,
    INTERVAL 1 HOUR)) AS h
), agents AS (
  SELECT p.id AS project_id, w.id AS workspace_id, p.ws_idx, p.local_idx
  FROM seed_projects p JOIN seed_ws w ON w.idx = p.ws_idx WHERE p.local_idx < 2
), hashed AS (
  SELECT a.*, h, (hash(epoch(h)::BIGINT, a.ws_idx, a.local_idx, $3) >> 1)::BIGINT AS r,
    (epoch(h) - epoch($1::TIMESTAMP)) / 86400.0 AS day_no
  FROM agents a, hours WHERE h < $2::TIMESTAMP
), shaped AS (
  SELECT *, round((24.0 / (ws_idx + 1) / (local_idx + 1))
      * CASE WHEN hour(h) BETWEEN 8 AND 17 THEN 1.6 ELSE 0.5 END
      * CASE WHEN dayofweek(h) IN (0, 6) THEN 0.5 ELSE 1.0 END
      * (0.6 + 0.8 * day_no / 365) * (0.7 + (r % 600) / 1000.0))::BIGINT AS runs
  FROM hashed
)
SELECT workspace_id, project_id, h, runs, runs * (2 + (r // 1000) % 3),
  (1 + CASE WHEN runs >= 20 THEN 1 ELSE 0 END + CASE WHEN (r // 7) % 17 = 0 THEN 1 ELSE 0 END)
    * least(3600000, epoch_ms($2::TIMESTAMP) - epoch_ms(h))
FROM shaped ORDER BY h, workspace_id, project_id
`;

export async function insertDeploymentHistory(
  connection: DuckDBConnection,
  fromIso: string,
  toIso: string,
  seed: number,
): Promise<void> {
  await connection.run(GENERATE_DEPLOYMENT_HISTORY, [fromIso, toIso, seed]);
}
