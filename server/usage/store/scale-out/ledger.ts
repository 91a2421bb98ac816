import type { ClickHouseClient } from '@clickhouse/client';
import type { Pool } from 'pg';
import { planSchema } from '@contracts/usage/plan-schema';
import type { Plan } from '@contracts/usage/pricing';
import type { AttributedCountRow, PeriodCountRow } from '@server/usage/model/billing-usage';
import type { BillingLedger } from '@server/usage/store/billing-ledger';
import { tsvRows } from './clickhouse/client';

/**
 * The billing ledger on ClickHouse + Postgres: traces counted in ClickHouse, upgrades,
 * deployment metering and the plan in Postgres.
 */
export function createScaleOutLedger(pool: Pool, clickhouse: ClickHouseClient): BillingLedger {
  const readPlan = async (): Promise<Plan | undefined> => {
    const result = await pool.query<{ plan: unknown }>(
      'SELECT plan FROM usage.billing_plan WHERE id = 1',
    );
    const [row] = result.rows;
    return row ? planSchema.parse(row.plan) : undefined;
  };
  return {
    periodCounts: (start, end) => periodCounts(pool, clickhouse, start, end),
    periodCountsBy: (start, end, by) => periodCountsBy(pool, clickhouse, start, end, by),
    plan: readPlan,
    async putPlan(plan, at) {
      const before = await readPlan();
      await pool.query(
        `INSERT INTO usage.billing_plan (id, plan, updated_at) VALUES (1, $1, $2)
         ON CONFLICT (id) DO UPDATE SET plan = excluded.plan, updated_at = excluded.updated_at`,
        [JSON.stringify(plan), at],
      );
      return before;
    },
  };
}

async function periodCounts(
  pool: Pool,
  clickhouse: ClickHouseClient,
  start: Date,
  end: Date,
): Promise<PeriodCountRow[]> {
  const [startMs, endMs] = [start.getTime(), end.getTime()];
  const day = (ms: number) => `toDate('${new Date(ms).toISOString().slice(0, 10)}')`;
  const traces = await tsvRows(
    clickhouse,
    `SELECT toString(workspace_id), toString(project_id), count(), countIf(trace_tier = 1)
     FROM traces
     WHERE day >= ${day(startMs)} AND day <= ${day(endMs)}
       AND start_ms >= ${startMs} AND start_ms < ${endMs}
     GROUP BY workspace_id, project_id`,
  );
  const upgrades = await pool.query<{ workspace_id: string; project_id: string; n: string }>(
    `SELECT workspace_id::text, project_id::text, count(*) AS n FROM usage.trace_upgrades
     WHERE upgraded_at >= $1 AND upgraded_at < $2 GROUP BY 1, 2`,
    [start, end],
  );
  const deployments = await pool.query<{
    workspace_id: string;
    project_id: string;
    runs: string;
    nodes: string;
    uptime: string;
  }>(
    `SELECT workspace_id::text, project_id::text, sum(agent_runs) AS runs,
       sum(nodes_executed) AS nodes, sum(uptime_ms) AS uptime
     FROM usage.deployment_usage WHERE metered_ms >= $1 AND metered_ms < $2 GROUP BY 1, 2`,
    [startMs, endMs],
  );
  return [
    ...traces.map(([workspaceId = '', projectId = '', n = '0', extended = '0']) => ({
      workspaceId,
      projectId,
      counts: { traces: Number(n), extendedTraces: Number(extended) },
    })),
    ...upgrades.rows.map((row) => ({
      workspaceId: row.workspace_id,
      projectId: row.project_id,
      counts: { feedbackUpgrades: Number(row.n) },
    })),
    ...deployments.rows.map((row) => ({
      workspaceId: row.workspace_id,
      projectId: row.project_id,
      counts: {
        deploymentRuns: Number(row.runs),
        deploymentNodes: Number(row.nodes),
        deploymentUptimeMs: Number(row.uptime),
      },
    })),
  ];
}

/** The column naming who drove a trace or an upgrade, per grouping (in both databases). */
const ATTRIBUTION_COLUMNS = { user: 'user_id', api_key: 'api_key_id' } as const;

async function periodCountsBy(
  pool: Pool,
  clickhouse: ClickHouseClient,
  start: Date,
  end: Date,
  by: keyof typeof ATTRIBUTION_COLUMNS,
): Promise<AttributedCountRow[]> {
  const column = ATTRIBUTION_COLUMNS[by];
  const [startMs, endMs] = [start.getTime(), end.getTime()];
  const day = (ms: number) => `toDate('${new Date(ms).toISOString().slice(0, 10)}')`;
  const traces = await tsvRows(
    clickhouse,
    `SELECT toString(workspace_id), ifNull(toString(${column}), ''), count(),
       countIf(trace_tier = 1)
     FROM traces
     WHERE day >= ${day(startMs)} AND day <= ${day(endMs)}
       AND start_ms >= ${startMs} AND start_ms < ${endMs}
     GROUP BY workspace_id, ${column}`,
  );
  const upgrades = await pool.query<{ workspace_id: string; by: string | null; n: string }>(
    `SELECT workspace_id::text, ${column}::text AS by, count(*) AS n FROM usage.trace_upgrades
     WHERE upgraded_at >= $1 AND upgraded_at < $2 GROUP BY 1, 2`,
    [start, end],
  );
  const deployments = await pool.query<{
    workspace_id: string;
    runs: string;
    nodes: string;
    uptime: string;
  }>(
    `SELECT workspace_id::text, sum(agent_runs) AS runs, sum(nodes_executed) AS nodes,
       sum(uptime_ms) AS uptime
     FROM usage.deployment_usage WHERE metered_ms >= $1 AND metered_ms < $2 GROUP BY 1`,
    [startMs, endMs],
  );
  return [
    ...traces.map(([workspaceId = '', attributedTo = '', n = '0', extended = '0']) => ({
      workspaceId,
      attributedTo: attributedTo === '' ? null : attributedTo,
      counts: { traces: Number(n), extendedTraces: Number(extended) },
    })),
    ...upgrades.rows.map((row) => ({
      workspaceId: row.workspace_id,
      attributedTo: row.by,
      counts: { feedbackUpgrades: Number(row.n) },
    })),
    ...deployments.rows.map((row) => ({
      workspaceId: row.workspace_id,
      attributedTo: null,
      counts: {
        deploymentRuns: Number(row.runs),
        deploymentNodes: Number(row.nodes),
        deploymentUptimeMs: Number(row.uptime),
      },
    })),
  ];
}
