import type { DuckDBConnection } from '@duckdb/node-api';
import { planSchema } from '@contracts/usage/plan-schema';
import type { Plan } from '@contracts/usage/pricing';
import type { AttributedCountRow, PeriodCountRow } from '@server/usage/model/billing-usage';
import type { BillingLedger } from '@server/usage/store/billing-ledger';
import type { DuckDbStore } from './connection';

/** The billing ledger on one DuckDB file: three grouped scans of one span, and the plan row. */
export function createDuckDbLedger(store: DuckDbStore): BillingLedger {
  const read = store.withConnection.bind(store);
  return {
    periodCounts: (start, end) => read((connection) => periodCounts(connection, start, end)),
    periodCountsBy: (start, end, by) =>
      read((connection) => periodCountsBy(connection, start, end, by)),
    plan: () => read(readPlan),
    putPlan: (plan, at) =>
      read(async (connection) => {
        const before = await readPlan(connection);
        await connection.run(
          `INSERT INTO billing_plan (id, plan, updated_at) VALUES (1, $1, $2::TIMESTAMP)
           ON CONFLICT (id) DO UPDATE SET plan = excluded.plan, updated_at = excluded.updated_at`,
          [JSON.stringify(plan), at.toISOString()],
        );
        return before;
      }),
  };
}

async function readPlan(connection: DuckDBConnection): Promise<Plan | undefined> {
  const reader = await connection.runAndReadAll('SELECT plan FROM billing_plan WHERE id = 1');
  const [row] = reader.getRowsJS();
  return row ? planSchema.parse(JSON.parse(String(row[0]))) : undefined;
}

async function periodCounts(
  connection: DuckDBConnection,
  start: Date,
  end: Date,
): Promise<PeriodCountRow[]> {
  const span = [start.toISOString(), end.toISOString()];
  const rows = async (sql: string) =>
    (await connection.runAndReadAll(sql, span))
      .getRowsJS()
      .map((row) => ({ ids: [String(row[0]), String(row[1])], values: row.slice(2).map(Number) }));
  const traces = await rows(
    `SELECT workspace_id::VARCHAR, project_id::VARCHAR, count(*),
       count(*) FILTER (WHERE trace_tier = 'longlived')
     FROM traces WHERE start_time >= $1::TIMESTAMP AND start_time < $2::TIMESTAMP
     GROUP BY ALL`,
  );
  const upgrades = await rows(
    `SELECT workspace_id::VARCHAR, project_id::VARCHAR, count(*)
     FROM trace_upgrades WHERE upgraded_at >= $1::TIMESTAMP AND upgraded_at < $2::TIMESTAMP
     GROUP BY ALL`,
  );
  const deployments = await rows(
    `SELECT workspace_id::VARCHAR, project_id::VARCHAR, sum(agent_runs), sum(nodes_executed),
       sum(uptime_ms)
     FROM deployment_usage WHERE metered_at >= $1::TIMESTAMP AND metered_at < $2::TIMESTAMP
     GROUP BY ALL`,
  );
  const at = (ids: string[]) => ({ workspaceId: ids[0] ?? '', projectId: ids[1] ?? '' });
  return [
    ...traces.map(({ ids, values: [n = 0, extended = 0] }) => ({
      ...at(ids),
      counts: { traces: n, extendedTraces: extended },
    })),
    ...upgrades.map(({ ids, values: [n = 0] }) => ({
      ...at(ids),
      counts: { feedbackUpgrades: n },
    })),
    ...deployments.map(({ ids, values: [runs = 0, nodes = 0, uptime = 0] }) => ({
      ...at(ids),
      counts: { deploymentRuns: runs, deploymentNodes: nodes, deploymentUptimeMs: uptime },
    })),
  ];
}

/** The column naming who drove a trace or an upgrade, per grouping. */
const ATTRIBUTION_COLUMNS = { user: 'user_id', api_key: 'api_key_id' } as const;

async function periodCountsBy(
  connection: DuckDBConnection,
  start: Date,
  end: Date,
  by: keyof typeof ATTRIBUTION_COLUMNS,
): Promise<AttributedCountRow[]> {
  const column = ATTRIBUTION_COLUMNS[by];
  const span = [start.toISOString(), end.toISOString()];
  const rows = async (sql: string) =>
    (await connection.runAndReadAll(sql, span)).getRowsJS().map((row) => ({
      workspaceId: String(row[0]),
      attributedTo: row[1] === null ? null : String(row[1]),
      values: row.slice(2).map(Number),
    }));
  const traces = await rows(
    `SELECT workspace_id::VARCHAR, ${column}::VARCHAR, count(*),
       count(*) FILTER (WHERE trace_tier = 'longlived')
     FROM traces WHERE start_time >= $1::TIMESTAMP AND start_time < $2::TIMESTAMP
     GROUP BY ALL`,
  );
  const upgrades = await rows(
    `SELECT workspace_id::VARCHAR, ${column}::VARCHAR, count(*)
     FROM trace_upgrades WHERE upgraded_at >= $1::TIMESTAMP AND upgraded_at < $2::TIMESTAMP
     GROUP BY ALL`,
  );
  const deployments = await rows(
    `SELECT workspace_id::VARCHAR, NULL, sum(agent_runs), sum(nodes_executed), sum(uptime_ms)
     FROM deployment_usage WHERE metered_at >= $1::TIMESTAMP AND metered_at < $2::TIMESTAMP
     GROUP BY ALL`,
  );
  return [
    ...traces.map(({ values: [n = 0, extended = 0], ...at }) => ({
      ...at,
      counts: { traces: n, extendedTraces: extended },
    })),
    ...upgrades.map(({ values: [n = 0], ...at }) => ({ ...at, counts: { feedbackUpgrades: n } })),
    ...deployments.map(({ values: [runs = 0, nodes = 0, uptime = 0], ...at }) => ({
      ...at,
      counts: { deploymentRuns: runs, deploymentNodes: nodes, deploymentUptimeMs: uptime },
    })),
  ];
}
