import type { Config } from '@server/config';
import type { RunMeter } from '../runs/stream-run';
import { countTaskChunk, createMeteringHandler } from './metering-callbacks';
import {
  createMetricsReporter,
  type MeteringTarget,
  type MetricsReporter,
} from './metrics-reporter';

/** What the deployment adds to every run for metering, and its shutdown. */
export interface RunMetering {
  /** One run's meter: it counts the run and its node executions, for its workspace if any. */
  meter(graphId: string, workspaceId?: string): RunMeter;
  /** Reports what is counted so far (tests; the heartbeat does it every interval). */
  flush(): Promise<void>;
  /** A last report, then no more heartbeats: this replica stops counting. */
  close(): Promise<void>;
}

/**
 * Where the embedded deployment meters (REMOTE_METRICS_ROLLUP_ENABLED, on unless false): the
 * usage service of this same process over HTTP at `selfUrl()` with the console's key, as an
 * external deployment would, and as its traces are billed. With LANGSMITH_ENDPOINT set the
 * console's usage is that LangSmith's, which meters its own deployments: nothing is sent.
 */
export function meteringTargetFromConfig(
  config: Config,
  selfUrl: () => string | undefined,
): (() => MeteringTarget | undefined) | undefined {
  if (!config.REMOTE_METRICS_ROLLUP_ENABLED || config.LANGSMITH_ENDPOINT) return undefined;
  return () => {
    const url = selfUrl();
    return url
      ? { url: `${url}/api/v1/deployments/metrics`, apiKey: config.USAGE_CONSOLE_API_KEY }
      : undefined;
  };
}

/**
 * Metering of one deployment process serving `graphIds`, attributed per graph (= project). The
 * runs of a workspace (started with a `langsmith` key of it) are reported for that workspace
 * (`X-Tenant-Id`) by a reporter of their own, as their traces are billed; the replica's uptime
 * stays with the deployment's own reports.
 */
export function createRunMetering(
  target: () => MeteringTarget | undefined,
  graphIds: readonly string[],
  intervalMs: number,
): RunMetering {
  const own = createMetricsReporter({ target, projects: graphIds, intervalMs });
  const ofWorkspaces = new Map<string, MetricsReporter>();
  const reporterFor = (workspaceId: string | undefined): MetricsReporter => {
    if (!workspaceId) return own;
    let reporter = ofWorkspaces.get(workspaceId);
    if (!reporter) {
      const forWorkspace = () => {
        const base = target();
        return base && { ...base, workspaceId };
      };
      reporter = createMetricsReporter({ target: forWorkspace, projects: [], intervalMs });
      ofWorkspaces.set(workspaceId, reporter);
    }
    return reporter;
  };
  const all = () => [own, ...ofWorkspaces.values()];
  return {
    meter: (graphId, workspaceId) => {
      const { counts } = reporterFor(workspaceId);
      return {
        run: () => counts.addRun(graphId, Date.now()),
        task: (payload) => countTaskChunk(counts, graphId, payload),
        handler: () => createMeteringHandler(counts, graphId),
      };
    },
    flush: async () => {
      await Promise.all(all().map((reporter) => reporter.flush()));
    },
    close: async () => {
      await Promise.all(all().map((reporter) => reporter.close()));
    },
  };
}
