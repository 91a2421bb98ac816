import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ClientSizes } from './client-sizes';

/** Seconds: from a fast JSON answer to a run that waits on a model. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A value read when Prometheus scrapes (a count in a database, a pool's size). */
export type Sampled = () =>
  Promise<number | Record<string, number>> | number | Record<string, number>;

/** What the services record; `createMetrics` implements it over one prom-client registry. */
export interface Metrics {
  registry: Registry;
  /** One answered HTTP request; `route` is the matched pattern, never the requested path. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** An SSE stream opened; call what it answers once the stream has ended. */
  streamOpened(route: string): () => void;
  /** A run ended on this replica (not rolled back). */
  runFinished(status: string, strategy: string): void;
  runsRolledBack(count: number): void;
  /** A run whose replica died was settled by this one (`outcome`: re-queued, interrupted, ...). */
  leaseExpired(outcome: string): void;
  /** One ingestion request that reached billing: what it billed and what limits refused. */
  ingested(billed: number, refusedBy: string[]): void;
  /** One usage query answered (`kind` traces or langsmith_deployments, its `group_by`). */
  usageQuery(kind: string, groupBy: string, seconds: number): void;
  /** A service's database clients, whose connections and queues are read at each scrape. */
  databaseClients(read: ClientSizes): void;
  /** A gauge read at each scrape; a record value gives one series per key of `labelName`. */
  sampledGauge(name: string, help: string, read: Sampled, labelName?: string): void;
}

/**
 * The one registry of a server process and its instruments. Labels carry route patterns,
 * statuses and other small closed sets, never a key, an id or a raw path: the page is safe to
 * serve wherever Prometheus can reach it.
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, with their latency',
    labelNames: ['route', 'method', 'status'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const streamsOpen = new Gauge({
    name: 'http_sse_streams_open',
    help: 'Server-sent event streams open now, by route pattern',
    labelNames: ['route'],
    registers,
  });
  const runsFinished = new Counter({
    name: 'lg_api_runs_finished_total',
    help: 'Runs that ended on this replica, by final status and multitask strategy',
    labelNames: ['status', 'strategy'],
    registers,
  });
  const rollbacks = new Counter({
    name: 'lg_api_runs_rolled_back_total',
    help: 'Runs deleted by a rollback (multitask strategy or cancel) on this replica',
    registers,
  });
  const leaseExpiries = new Counter({
    name: 'lg_api_run_lease_expiries_total',
    help: 'Runs whose replica stopped renewing their lease, settled here, by outcome',
    labelNames: ['outcome'],
    registers,
  });
  const ingestBatches = new Counter({
    name: 'usage_ingest_batches_total',
    help: 'Trace ingestion requests that reached billing, by outcome',
    labelNames: ['outcome'],
    registers,
  });
  const tracesBilled = new Counter({
    name: 'usage_traces_billed_total',
    help: 'New root runs billed as traces',
    registers,
  });
  const refusals = new Counter({
    name: 'usage_trace_refusals_total',
    help: 'New root runs refused by a usage limit, by the limit that refused them',
    labelNames: ['limit_type'],
    registers,
  });

  const usageQueries = new Histogram({
    name: 'usage_query_duration_seconds',
    help: 'Usage queries (granular-usage JSON answers) by kind and group_by, with their latency',
    labelNames: ['kind', 'group_by'],
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const clientReaders: ClientSizes[] = [];
  new Gauge({
    name: 'db_client_connections',
    help: 'Connections of each database client (total, idle) and requests waiting for one',
    labelNames: ['client', 'state'],
    registers,
    collect() {
      this.reset();
      for (const read of clientReaders) {
        for (const [client, size] of Object.entries(read())) {
          for (const [state, value] of Object.entries(size)) this.set({ client, state }, value);
        }
      }
    },
  });

  function sampledGauge(name: string, help: string, read: Sampled, labelName?: string): void {
    new Gauge({
      name,
      help,
      labelNames: labelName ? [labelName] : [],
      registers,
      async collect() {
        const value = await read();
        this.reset();
        if (typeof value === 'number') this.set(value);
        else if (labelName) {
          for (const [label, count] of Object.entries(value))
            this.set({ [labelName]: label }, count);
        }
      },
    });
  }

  return {
    registry,
    request(route: string, method: string, status: number, seconds: number): void {
      httpDuration.observe({ route, method, status: String(status) }, seconds);
    },
    streamOpened(route: string): () => void {
      streamsOpen.inc({ route });
      let open = true;
      return () => {
        if (open) streamsOpen.dec({ route });
        open = false;
      };
    },
    runFinished(status: string, strategy: string): void {
      runsFinished.inc({ status, strategy });
    },
    runsRolledBack(count: number): void {
      rollbacks.inc(count);
    },
    leaseExpired(outcome: string): void {
      leaseExpiries.inc({ outcome });
    },
    ingested(billed: number, refusedBy: string[]): void {
      ingestBatches.inc({ outcome: refusedBy.length > 0 ? 'refused' : 'billed' });
      tracesBilled.inc(billed);
      for (const limitType of refusedBy) refusals.inc({ limit_type: limitType });
    },
    usageQuery(kind: string, groupBy: string, seconds: number): void {
      usageQueries.observe({ kind, group_by: groupBy }, seconds);
    },
    databaseClients(read: ClientSizes): void {
      clientReaders.push(read);
    },
    sampledGauge,
  };
}
