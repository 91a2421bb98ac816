import type { Pool } from 'pg';
import type { DeploymentReport } from '@contracts/usage/deployment-report';
import { applyHeartbeat, splitAtSteps } from '@server/usage/metering/replica-uptime';
import type { AppliedReport } from '@server/usage/store/usage-store';
import { ensureProjectRows } from './ensure-projects';
import { MINUTE_MS } from '@contracts/usage/time';

const NOTHING: AppliedReport = { applied: false, agentRuns: 0, nodesExecuted: 0, uptimeMs: 0 };

type Row = [projectName: string, atMs: number, runs: number, nodes: number, uptimeMs: number];

/**
 * Applies a replica's report as the DuckDB backend does (`duckdb/apply-deployment-report.ts`),
 * in one Postgres transaction that holds the replica's row lock: replicas of the usage service
 * receiving the same report at once apply it once (the second waits for the lock, then sees the
 * first's `last_seq`), and different replicas' reports never wait for each other.
 */
export async function applyDeploymentReport(
  pool: Pool,
  workspaceId: string,
  report: DeploymentReport,
  nowMs: number,
): Promise<AppliedReport> {
  const names = [...new Set([...report.counts.map((c) => c.project_name), ...report.projects])];
  // Projects are created outside the transaction: creating one twice is harmless.
  const projects = await ensureProjectRows(pool, workspaceId, names);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // The row exists before it is locked, so a first report racing itself also serialises.
    await client.query(
      `INSERT INTO usage.deployment_replicas VALUES ($1, $2, $3, 0, 0)
       ON CONFLICT (replica_id) DO NOTHING`,
      [report.replica_id, workspaceId, Date.parse(report.started_at)],
    );
    const found = await client.query<{ started: string; seen: string; seq: number }>(
      `SELECT started_ms AS started, last_seen_ms AS seen, last_seq AS seq
       FROM usage.deployment_replicas WHERE replica_id = $1 FOR UPDATE`,
      [report.replica_id],
    );
    const row = found.rows[0];
    // last_seq 0: the placeholder above, no report applied yet.
    const previous =
      row === undefined || row.seq === 0
        ? undefined
        : { startedAtMs: Number(row.started), lastSeenMs: Number(row.seen), lastSeq: row.seq };
    const outcome = applyHeartbeat(
      previous,
      {
        startedAtMs: Date.parse(report.started_at),
        seq: report.seq,
        sentAtMs: Date.parse(report.sent_at),
      },
      nowMs,
    );
    if (!outcome.applied || !outcome.state) {
      await client.query('ROLLBACK');
      return NOTHING;
    }
    const rows: Row[] = report.counts.map((count) => [
      count.project_name,
      Date.parse(count.minute),
      count.agent_runs,
      count.nodes_executed,
      0,
    ]);
    const credit = outcome.credit ? splitAtSteps(outcome.credit, MINUTE_MS) : [];
    for (const project of new Set(report.projects)) {
      for (const part of credit) rows.push([project, part.startMs, 0, 0, part.ms]);
    }
    if (rows.length > 0) {
      const column = (index: 1 | 2 | 3 | 4) => rows.map((r) => r[index]);
      await client.query(
        `INSERT INTO usage.deployment_usage
         SELECT $1, p, at, runs, nodes, up
         FROM unnest($2::uuid[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
           AS r (p, at, runs, nodes, up)`,
        [
          workspaceId,
          rows.map(([name]) => projects.get(name)?.id),
          column(1),
          column(2),
          column(3),
          column(4),
        ],
      );
    }
    const { state } = outcome;
    await client.query(
      `UPDATE usage.deployment_replicas
       SET workspace_id = $2, started_ms = $3, last_seen_ms = $4, last_seq = $5
       WHERE replica_id = $1`,
      [report.replica_id, workspaceId, state.startedAtMs, state.lastSeenMs, state.lastSeq],
    );
    await client.query('COMMIT');
    const sum = (index: 2 | 3 | 4) => rows.reduce((total, r) => total + r[index], 0);
    return { applied: true, agentRuns: sum(2), nodesExecuted: sum(3), uptimeMs: sum(4) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
