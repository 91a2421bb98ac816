import type { DeploymentReport } from '@contracts/usage/deployment-report';
import { MINUTE_MS } from '@contracts/usage/time';

type ReportCount = DeploymentReport['counts'][number];

/**
 * Runs and node executions counted per (project, UTC minute) until `drain` hands them to a
 * report. Pure bookkeeping: every run adds one agent run, every node execution (task) one node
 * executed, in the minute it started.
 */
export function createMetricCounts() {
  let counts = new Map<string, ReportCount>();
  const entry = (project: string, atMs: number): ReportCount => {
    const minute = new Date(Math.floor(atMs / MINUTE_MS) * MINUTE_MS).toISOString();
    const key = `${minute} ${project}`;
    let count = counts.get(key);
    if (!count) {
      count = { project_name: project, minute, agent_runs: 0, nodes_executed: 0 };
      counts.set(key, count);
    }
    return count;
  };
  return {
    addRun(project: string, atMs: number): void {
      entry(project, atMs).agent_runs += 1;
    },
    addNode(project: string, atMs: number): void {
      entry(project, atMs).nodes_executed += 1;
    },
    /** The counts so far, in insertion order; the next ones start from zero. */
    drain(): ReportCount[] {
      const drained = [...counts.values()];
      counts = new Map();
      return drained;
    },
  };
}

export type MetricCounts = ReturnType<typeof createMetricCounts>;
