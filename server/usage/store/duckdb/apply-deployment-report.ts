import type { DuckDBConnection } from '@duckdb/node-api';
import type { DeploymentReport } from '@contracts/usage/deployment-report';
import { applyHeartbeat, splitAtSteps } from '@server/usage/metering/replica-uptime';
import type { AppliedReport } from '@server/usage/store/usage-store';
import { ensureProjects } from './ensure-projects';
import { MINUTE_MS } from '@contracts/usage/time';

type Row = [projectName: string, atIso: string, runs: number, nodes: number, uptimeMs: number];

/**
 * Applies a replica's report in one transaction: its counts as rows of `deployment_usage` in
 * `workspaceId`, per project (created on first sight, as trace ingestion creates them); its
 * heartbeat's uptime credit (see `applyHeartbeat`) split by UTC minute and added to each project
 * the replica serves; the replica's new state. A report already applied changes nothing. Run
 * on the backend's one writer (`ingestor.exclusive`), so it never races trace ingestion.
 */
export async function applyDeploymentReport(
  connection: DuckDBConnection,
  workspaceId: string,
  report: DeploymentReport,
  nowMs: number,
): Promise<AppliedReport> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const result = await applyInTransaction(connection, workspaceId, report, nowMs);
    await connection.run(result.applied ? 'COMMIT' : 'ROLLBACK');
    return result;
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function applyInTransaction(
  connection: DuckDBConnection,
  workspaceId: string,
  report: DeploymentReport,
  nowMs: number,
): Promise<AppliedReport> {
  const reader = await connection.runAndReadAll(
    `SELECT epoch_ms(started_at)::DOUBLE, epoch_ms(last_seen)::DOUBLE, last_seq
     FROM deployment_replicas WHERE replica_id = $1::UUID`,
    [report.replica_id],
  );
  const [startedAtMs, lastSeenMs, lastSeq] = (reader.getRowsJS()[0] ?? []).map(Number);
  const previous =
    lastSeq === undefined
      ? undefined
      : { startedAtMs: startedAtMs ?? 0, lastSeenMs: lastSeenMs ?? 0, lastSeq };
  const beat = {
    startedAtMs: Date.parse(report.started_at),
    seq: report.seq,
    sentAtMs: Date.parse(report.sent_at),
  };
  const outcome = applyHeartbeat(previous, beat, nowMs);
  if (!outcome.applied || !outcome.state) {
    return { applied: false, agentRuns: 0, nodesExecuted: 0, uptimeMs: 0 };
  }

  const rows: Row[] = report.counts.map((count) => [
    count.project_name,
    count.minute,
    count.agent_runs,
    count.nodes_executed,
    0,
  ]);
  const credit = outcome.credit ? splitAtSteps(outcome.credit, MINUTE_MS) : [];
  for (const project of new Set(report.projects)) {
    for (const part of credit) {
      rows.push([project, new Date(part.startMs).toISOString(), 0, 0, part.ms]);
    }
  }
  const names = [...new Set(rows.map(([name]) => name))];
  const projectId = await ensureProjects(
    connection,
    names.map((name) => ({ workspaceId, name })),
    new Map(),
    new Map(),
  );
  if (rows.length > 0) {
    const json = rows.map(([name, at, runs, nodes, uptimeMs]) => ({
      project_id: projectId(workspaceId, name),
      at,
      runs,
      nodes,
      uptime_ms: uptimeMs,
    }));
    await connection.run(
      `INSERT INTO deployment_usage
       SELECT $1::UUID, r.project_id::UUID, r.at::TIMESTAMP, r.runs, r.nodes, r.uptime_ms
       FROM (SELECT unnest(from_json($2, '[{"project_id": "VARCHAR", "at": "VARCHAR",
         "runs": "BIGINT", "nodes": "BIGINT", "uptime_ms": "BIGINT"}]'), recursive := true)) r`,
      [workspaceId, JSON.stringify(json)],
    );
  }
  const { state } = outcome;
  await connection.run(
    `INSERT OR REPLACE INTO deployment_replicas VALUES ($1::UUID, $2::UUID,
       make_timestamp($3::BIGINT * 1000), make_timestamp($4::BIGINT * 1000), $5)`,
    [report.replica_id, workspaceId, state.startedAtMs, state.lastSeenMs, state.lastSeq],
  );
  const sum = (index: 2 | 3 | 4) => rows.reduce((total, row) => total + row[index], 0);
  return { applied: true, agentRuns: sum(2), nodesExecuted: sum(3), uptimeMs: sum(4) };
}
