import type { Metrics } from '@server/metrics/metrics';
import type { RunStore } from '../store/deployment-store';
import type { RunRecord } from '../store/records';

export type RunMetrics = Pick<
  Metrics,
  'runFinished' | 'runsRolledBack' | 'leaseExpired' | 'sampledGauge' | 'databaseClients'
>;

/**
 * The run gauges read at each scrape: the stored runs by status (the whole deployment's, shared
 * by every replica), pending and running as the Agent Server names them, and those executing here.
 */
export function registerRunGauges(
  metrics: RunMetrics,
  { runs, executingCount }: { runs: Pick<RunStore, 'countByStatus'>; executingCount: () => number },
): void {
  metrics.sampledGauge(
    'lg_api_runs',
    'Stored runs by status',
    async () => {
      const counts = await runs.countByStatus();
      return Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== undefined));
    },
    'status',
  );
  metrics.sampledGauge(
    'lg_api_num_pending_runs',
    'Runs waiting to start, on every replica',
    async () => (await runs.countByStatus()).pending ?? 0,
  );
  metrics.sampledGauge(
    'lg_api_num_running_runs',
    'Runs executing, on every replica',
    async () => (await runs.countByStatus()).running ?? 0,
  );
  metrics.sampledGauge('lg_api_runs_executing', 'Runs executing on this replica', executingCount);
}

/** The deployment database's pool, when it has one (Postgres). */
export function registerPoolGauge(
  metrics: RunMetrics,
  poolSize: (() => Record<string, number>) | undefined,
): void {
  if (!poolSize) return;
  metrics.sampledGauge(
    'deployment_db_pool_connections',
    'Connections of the deployment database pool: total, idle, and requests waiting for one',
    poolSize,
    'state',
  );
}

/** Counts a run that ended by its final status and the multitask strategy it was created with. */
export const countFinishedRun = (metrics: RunMetrics, run: RunRecord) =>
  metrics.runFinished(run.status, run.multitask_strategy ?? 'none');
