import type { BillingUsage } from '@contracts/usage/billing-schema';
import { USAGE_METRICS, type UsageMetric } from '@contracts/usage/pricing';

export type MetricValues = Record<UsageMetric, number>;

/** The raw counts a backend reads; `model/billing-usage.ts` turns them into metrics. */
export interface PeriodCounts {
  /** Traces ingested. */
  traces: number;
  /** Of them, ingested into an extended-retention project. */
  extendedTraces: number;
  /** Base traces upgraded to extended retention by feedback. */
  feedbackUpgrades: number;
  deploymentRuns: number;
  deploymentNodes: number;
  deploymentUptimeMs: number;
}

export interface PeriodCountRow {
  workspaceId: string;
  projectId: string;
  counts: Partial<PeriodCounts>;
}

/** Counts of one workspace driven by one user or API key (null: by none). */
export interface AttributedCountRow {
  workspaceId: string;
  attributedTo: string | null;
  counts: Partial<PeriodCounts>;
}

/** Any row of counts of one workspace: what the metrics are summed from. */
type CountRow = Pick<PeriodCountRow, 'workspaceId' | 'counts'>;

export const zeroMetrics = (): MetricValues => ({
  base_traces: 0,
  extended_traces: 0,
  extended_upgrades: 0,
  deployment_runs: 0,
  deployment_nodes: 0,
  deployment_uptime_seconds: 0,
});

/**
 * The billed metrics of one row of counts. A trace ingested into an extended project is billed
 * as a base trace and an upgrade at once (LangSmith records both at the same timestamp); a base
 * trace upgraded by feedback adds an upgrade in the month of the feedback. Uptime is whole
 * seconds per (workspace, project), so a total is the sum of its parts.
 */
export function metricsOf(counts: Partial<PeriodCounts>): MetricValues {
  const extended = counts.extendedTraces ?? 0;
  return {
    base_traces: counts.traces ?? 0,
    extended_traces: extended,
    extended_upgrades: extended + (counts.feedbackUpgrades ?? 0),
    deployment_runs: counts.deploymentRuns ?? 0,
    deployment_nodes: counts.deploymentNodes ?? 0,
    deployment_uptime_seconds: Math.round((counts.deploymentUptimeMs ?? 0) / 1000),
  };
}

export const addMetrics = (a: MetricValues, b: MetricValues): MetricValues => {
  const sum = zeroMetrics();
  for (const metric of USAGE_METRICS) sum[metric] = a[metric] + b[metric];
  return sum;
};

/** Metrics per key (`keyOf` a row), over the rows of the workspaces asked for. */
export function metricsBy<Row extends CountRow>(
  rows: readonly Row[],
  workspaceIds: ReadonlySet<string>,
  keyOf: (row: Row) => string,
): Map<string, MetricValues> {
  const by = new Map<string, MetricValues>();
  for (const row of rows) {
    if (!workspaceIds.has(row.workspaceId)) continue;
    const key = keyOf(row);
    by.set(key, addMetrics(by.get(key) ?? zeroMetrics(), metricsOf(row.counts)));
  }
  return by;
}

/**
 * `GET /orgs/current/billing/usage`'s answer: every metric, its total and its value per group
 * (`keyOf` a row: its workspace by default; groups with none of it left out), in metric order
 * then group key order.
 */
export function billingUsage<Row extends CountRow>(
  rows: readonly Row[],
  workspaceIds: ReadonlySet<string>,
  keyOf: (row: Row) => string = (row) => row.workspaceId,
): BillingUsage {
  const byGroup = metricsBy(rows, workspaceIds, keyOf);
  const ids = [...byGroup.keys()].sort();
  return USAGE_METRICS.map((metric) => {
    const groups: Record<string, number> = {};
    let value = 0;
    for (const id of ids) {
      const n = byGroup.get(id)?.[metric] ?? 0;
      if (n === 0) continue;
      groups[id] = n;
      value += n;
    }
    return { metric, value, groups };
  });
}
