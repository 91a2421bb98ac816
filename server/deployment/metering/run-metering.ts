import type { Config } from '@server/config';
import type { RunMeter } from '../runs/stream-run';
import { countTaskChunk, createMeteringHandler } from './metering-callbacks';
import { createMetricsReporter, type MeteringTarget } from './metrics-reporter';

/** What the deployment adds to every run for metering, and its shutdown. */
export interface RunMetering {
  /** One run's meter: it counts the run and its node executions. */
  meter(graphId: string): RunMeter;
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

/** Metering of one deployment process serving `graphIds`, attributed per graph (= project). */
export function createRunMetering(
  target: () => MeteringTarget | undefined,
  graphIds: readonly string[],
  intervalMs: number,
): RunMetering {
  const reporter = createMetricsReporter({ target, projects: graphIds, intervalMs });
  const { counts } = reporter;
  return {
    meter: (graphId) => ({
      run: () => counts.addRun(graphId, Date.now()),
      task: (payload) => countTaskChunk(counts, graphId, payload),
      handler: () => createMeteringHandler(counts, graphId),
    }),
    flush: reporter.flush,
    close: reporter.close,
  };
}
