/**
 * The Deployments domain's tables (migration 7):
 * - `deployment_usage`: metered deployment work, appended: per (workspace, project = the
 *   deployed graph, UTC minute or, for the demo history, hour) the agent runs, node executions
 *   and replica uptime (ms, summed across replicas) of one report. Queries sum rows by bucket,
 *   so a minute may hold several rows (several replicas, several reports).
 * - `deployment_replicas`: per replica process, its start, the end of the uptime credited so
 *   far and the last report applied (see `metering/replica-uptime.ts`).
 */
export const DEPLOYMENT_TABLES_SQL = `
  CREATE TABLE deployment_usage (
    workspace_id UUID NOT NULL,
    project_id UUID NOT NULL,
    metered_at TIMESTAMP NOT NULL,
    agent_runs BIGINT NOT NULL,
    nodes_executed BIGINT NOT NULL,
    uptime_ms BIGINT NOT NULL
  );
  CREATE TABLE deployment_replicas (
    replica_id UUID PRIMARY KEY,
    workspace_id UUID NOT NULL,
    started_at TIMESTAMP NOT NULL,
    last_seen TIMESTAMP NOT NULL,
    last_seq INTEGER NOT NULL
  );`;
