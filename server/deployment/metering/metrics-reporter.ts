import { randomUUID } from 'node:crypto';
import { inBackground } from '@server/lib/in-background';
import type { DeploymentReport } from '@contracts/usage/deployment-report';
import { createMetricCounts } from './metric-counts';

/** Bounded: the process must stop within 2 s even when the usage service is gone. */
const SEND_TIMEOUT_MS = 500;

/** Where a replica reports: the usage service's metrics endpoint and the key it sends. */
export interface MeteringTarget {
  url: string;
  apiKey: string | undefined;
  /** The workspace the report is for (`X-Tenant-Id`); else the key's own. */
  workspaceId?: string;
}

export interface MetricsReporterOptions {
  target: () => MeteringTarget | undefined;
  /** The projects (graphs) this replica serves: its uptime is credited to each. */
  projects: readonly string[];
  /** How often the replica reports (its heartbeat); 0: only on `flush`. */
  intervalMs: number;
  now?: () => number;
  /** Sends one report; resolves true once the service acknowledged it. */
  send?: (target: MeteringTarget, report: DeploymentReport) => Promise<boolean>;
}

async function postReport(target: MeteringTarget, report: DeploymentReport): Promise<boolean> {
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(target.apiKey && { 'x-api-key': target.apiKey }),
        ...(target.workspaceId && { 'x-tenant-id': target.workspaceId }),
      },
      body: JSON.stringify(report),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * One replica's metering: counts runs and nodes (`counts`) and reports them with a heartbeat
 * every `intervalMs`. The replica is a new one at every process start (fresh id and start time).
 * A report is resent unchanged until acknowledged, so the service, which applies each `seq`
 * once, counts every run and node exactly once; counts made meanwhile wait for the next report.
 */
export function createMetricsReporter(options: MetricsReporterOptions) {
  const now = options.now ?? Date.now;
  const send = options.send ?? postReport;
  const replicaId = randomUUID();
  const startedAt = new Date(now()).toISOString();
  const counts = createMetricCounts();
  let seq = 0;
  let unacknowledged: DeploymentReport | undefined;
  let sending: Promise<void> | undefined;

  const nextReport = (): DeploymentReport => ({
    replica_id: replicaId,
    started_at: startedAt,
    seq: (seq += 1),
    sent_at: new Date(now()).toISOString(),
    projects: [...options.projects],
    counts: counts.drain(),
  });

  /** Delivers the waiting report, if any, then a fresh one (the latest counts and heartbeat). */
  async function deliver(): Promise<void> {
    const target = options.target();
    if (!target) return;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const fresh = unacknowledged === undefined;
      unacknowledged ??= nextReport();
      if (!(await send(target, unacknowledged))) return;
      unacknowledged = undefined;
      if (fresh) return;
    }
  }

  const flush = (): Promise<void> => {
    sending ??= deliver().finally(() => (sending = undefined));
    return sending;
  };

  const timer =
    options.intervalMs > 0
      ? setInterval(() => inBackground('Metering report', flush()), options.intervalMs)
      : null;
  timer?.unref();

  return {
    replicaId,
    counts,
    flush,
    /** Stops the heartbeat after a last report (bounded by the send timeout). */
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      await sending;
      await flush();
    },
  };
}

export type MetricsReporter = ReturnType<typeof createMetricsReporter>;
