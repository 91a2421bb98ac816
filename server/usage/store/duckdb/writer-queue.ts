import type { DuckDBConnection } from '@duckdb/node-api';
import type { ClientSize } from '@server/metrics/client-sizes';
import type { RunBatch, RunBatchResult } from '@server/usage/store/usage-store';
import type { DuckDbStore } from './connection';
import { writeGroup, type Known, type PendingBatch } from './ingest-runs';
import type { AdmitRuns } from './limits/admit-runs';
import { loadRunIdFilter, type RunIdFilter } from './run-id-filter';

export type IngestRuns = (batch: RunBatch) => Promise<RunBatchResult>;

export interface RunIngestor {
  ingest: IngestRuns;
  /**
   * Runs `work` between two group commits, as the only writer: for writes that are not a batch
   * of runs billed now (`ingestTrace`), so they share the billed-run filter and never race.
   */
  exclusive<T>(work: (connection: DuckDBConnection, billed: RunIdFilter) => Promise<T>): Promise<T>;
  /** The one writer's connection, and the batches and writes queued for it. */
  size(): ClientSize;
  /** Waits for the batches under way, then releases the writer's connection. */
  close(): Promise<void>;
}

type Job =
  PendingBatch | { work: (connection: DuckDBConnection, billed: RunIdFilter) => Promise<void> };

/**
 * Returns `ingestRuns`, which bills batches of root runs. Batches that arrive while a write is
 * under way are written together in the next transaction (group commit), with a fixed number of
 * statements whatever their size: new projects, the traces (a `run_id` already billed is
 * skipped, so a resent run counts once; see `run-id-filter.ts`) and the four groupings of
 * `usage_daily` and `usage_cumulative`. A batch's promise resolves only after its transaction
 * committed, so an acknowledged batch survives a crash, and a failed transaction rejects every
 * batch in it. Usage counts go by ingestion time: a trace's `start_time` is the transaction's
 * start.
 */
export function createRunIngestor(
  store: DuckDbStore,
  options: { admit?: AdmitRuns } = {},
): RunIngestor {
  let pending: Job[] = [];
  let writing = false;
  let connection: DuckDBConnection | undefined;
  let drained: Promise<void> = Promise.resolve();
  // What committed transactions created: projects (name -> id), rollup rows and billed run ids.
  // None is ever deleted, so later batches skip the statements that would create them.
  let known: Known | undefined;

  async function drain(): Promise<void> {
    writing = true;
    while (pending.length > 0) {
      const jobs = pending;
      pending = [];
      const group: PendingBatch[] = [];
      for (const job of jobs) if ('batch' in job) group.push(job);
      try {
        // One connection for all writes, opened on the first batch (writes are serial anyway).
        connection ??= await store.connect();
        // The first write after a start reads every billed run id (≈ 0.3 s a million traces).
        known ??= {
          projects: new Map(),
          rollupRows: new Set(),
          billed: await loadRunIdFilter(connection),
        };
        for (const job of jobs) if ('work' in job) await job.work(connection, known.billed);
        if (group.length > 0) {
          const results = await writeGroup(connection, group, known, options.admit);
          group.forEach((entry, i) =>
            entry.resolve(
              results[i] ?? { inserted: 0, duplicates: 0, refused: [], ingestedAt: new Date() },
            ),
          );
        }
      } catch (error) {
        group.forEach((entry) => entry.reject(error));
      }
    }
    writing = false;
  }

  const enqueue = (job: Job) => {
    pending.push(job);
    if (!writing) drained = drain();
  };

  return {
    ingest: (batch) =>
      new Promise<RunBatchResult>((resolve, reject) => enqueue({ batch, resolve, reject })),
    size: () => ({
      total: connection ? 1 : 0,
      idle: connection && !writing ? 1 : 0,
      waiting: pending.length,
    }),
    exclusive: (work) =>
      new Promise((resolve, reject) =>
        enqueue({
          work: (connection, billed) => work(connection, billed).then(resolve, reject),
        }),
      ),
    async close() {
      await drained;
      connection?.closeSync();
      connection = undefined;
    },
  };
}
