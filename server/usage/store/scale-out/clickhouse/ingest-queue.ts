import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Pool } from 'pg';
import type { TraceTier } from '@contracts/usage/limit-period';
import {
  claimRuns,
  confirmClaim,
  CLAIM_LEASE_MS,
  type ClaimRow,
} from '@server/usage/store/scale-out/billed-runs';
import { releaseDeadClaims } from '@server/usage/store/scale-out/limits/claims';
import type { MonthBaseline } from '@server/usage/store/scale-out/limits/month-counters';
import type { TargetBaseline } from '@server/usage/store/scale-out/limits/target-counters';
import type { RefusedRun } from '@server/usage/store/usage-store';
import { DependencyError, outageOf } from '@server/http/dependency-outage';
import { INSERT_TIMEOUT_MS, utcDay, withinDeadline } from './client';
import { findRunIds } from './find-run-ids';

/** One trace to bill: its row in `traces`. */
export interface TraceRow {
  runId: string;
  workspaceId: string;
  projectId: string;
  userId: string | null;
  apiKeyId: string | null;
  startMs: number;
  /** Long-lived (extended retention) or short-lived: the project's default at ingestion. */
  tier: TraceTier;
  /** The project name of a root run of `ingestRuns`: held to its workspace's usage limits. */
  limitedProject?: string;
}

/** How a job's rows ended: stored as new traces, already billed, or refused by a limit. */
export interface JobResult {
  inserted: number;
  duplicates: number;
  refused: RefusedRun[];
}

interface Job {
  rows: TraceRow[];
  result: JobResult;
  deadline: number;
  resolve: (result: JobResult) => void;
  reject: (error: unknown) => void;
}

/** A job whose ids stay held by a live claim this long (3 leases) fails instead of waiting. */
const GIVE_UP_MS = 3 * CLAIM_LEASE_MS;
const RETRY_MS = 100;
/**
 * After a write found ClickHouse away, jobs arriving this long are refused at once: clients are
 * told to come back (503) instead of each waiting out the insert deadline on a dead server.
 */
const AWAY_MS = 1_000;

/**
 * The write path of a replica: jobs that arrive while a write is under way are written together
 * (one claim statement in Postgres, one insert into ClickHouse: few parts). A job resolves once
 * its traces are in ClickHouse and their claim is confirmed; ids another replica is writing at
 * the same moment are asked for again every 100 ms until that replica confirms (a duplicate) or
 * its claim dies (then settled, see `claimRuns`).
 */
export function createIngestQueue(
  pool: Pool,
  client: ClickHouseClient,
  baseline: MonthBaseline,
  targetBaseline: TargetBaseline,
) {
  let pending: Job[] = [];
  let writing: Promise<void> | null = null;
  const timers = new Map<NodeJS.Timeout, Job>();

  const findStored = (rows: ClaimRow[]) => findRunIds(client, 'traces', rows);

  async function writeGroup(jobs: Job[]): Promise<void> {
    const owner = new Map<string, { job: Job; row: TraceRow }>();
    for (const job of jobs) {
      for (const row of job.rows) {
        if (owner.has(row.runId)) job.result.duplicates += 1;
        else owner.set(row.runId, { job, row });
      }
    }
    const claim = randomUUID();
    const outcome = await claimRuns(
      pool,
      claim,
      [...owner.values()].map(({ row }) => ({
        runId: row.runId,
        workspaceId: row.workspaceId,
        day: utcDay(row.startMs),
        tier: row.tier,
        limitedProject: row.limitedProject,
        projectId: row.projectId,
        userId: row.userId,
      })),
      findStored,
      baseline,
      targetBaseline,
    );
    const fresh = [...owner.values()].filter(({ row }) => outcome.claimed.has(row.runId));
    if (fresh.length > 0) {
      await withinDeadline(INSERT_TIMEOUT_MS, (signal) =>
        client.insert({
          table: 'traces',
          format: 'JSONEachRow',
          values: fresh.map(({ row }) => ({
            run_id: row.runId,
            workspace_id: row.workspaceId,
            project_id: row.projectId,
            user_id: row.userId,
            api_key_id: row.apiKeyId,
            start_ms: row.startMs,
            day: utcDay(row.startMs),
            trace_tier: row.tier === 'long' ? 1 : 0,
          })),
          abort_signal: signal,
        }),
      );
      await confirmClaim(pool, claim);
    }
    const waiting = new Map<Job, TraceRow[]>();
    for (const { job, row } of owner.values()) {
      const refusal = outcome.refused.get(row.runId);
      if (outcome.claimed.has(row.runId)) job.result.inserted += 1;
      else if (refusal) job.result.refused.push({ runId: row.runId, ...refusal });
      else if (outcome.waiting.has(row.runId)) waiting.set(job, [...(waiting.get(job) ?? []), row]);
      else job.result.duplicates += 1;
    }
    for (const job of jobs) {
      const rows = waiting.get(job);
      if (!rows) job.resolve(job.result);
      else if (Date.now() > job.deadline)
        job.reject(new Error('run ids stay claimed by another writer'));
      else later({ ...job, rows });
    }
  }

  /** The last ClickHouse outage a write met, and when. */
  let away: { error: unknown; at: number } | undefined;

  async function drain(): Promise<void> {
    while (pending.length > 0) {
      const jobs = pending;
      pending = [];
      // A failed group rejects its jobs; their claims die and are settled by the next sender.
      await writeGroup(jobs).catch((error: unknown) => {
        jobs.forEach((job) => job.reject(error));
        if (outageOf(error)?.dependency !== 'clickhouse') return;
        away = { error, at: Date.now() };
        // The jobs that queued behind it would wait out the same deadline on the same server.
        pending.splice(0).forEach((job) => job.reject(error));
      });
    }
    writing = null;
  }

  // Dead claims no one re-sends would keep their runs counted: give them back every lease.
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweeper = setInterval(() => {
    sweeping = releaseDeadClaims(pool, CLAIM_LEASE_MS, findStored).catch((error: unknown) =>
      console.error('[usage] releasing dead claims failed:', error),
    );
  }, CLAIM_LEASE_MS);
  sweeper.unref();

  const enqueue = (job: Job) => {
    if (away && Date.now() - away.at < AWAY_MS) {
      job.reject(
        new DependencyError('clickhouse', 'ClickHouse did not answer the last write', {
          cause: away.error,
        }),
      );
      return;
    }
    pending.push(job);
    writing ??= drain();
  };
  const later = (job: Job) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      enqueue(job);
    }, RETRY_MS);
    timers.set(timer, job);
  };

  return {
    /** Batches waiting for the next group write (and whether one is under way). */
    size: () => ({ total: 1, idle: writing ? 0 : 1, waiting: pending.length }),
    /** Bills `rows` (distinct lower-case run ids per call are not required). */
    write: (rows: TraceRow[]) =>
      new Promise<JobResult>((resolve, reject) =>
        enqueue({
          rows,
          result: { inserted: 0, duplicates: 0, refused: [] },
          deadline: Date.now() + GIVE_UP_MS,
          resolve,
          reject,
        }),
      ),
    /** Waits for the writes under way; jobs waiting for another writer's claim are failed. */
    async close() {
      clearInterval(sweeper);
      await sweeping;
      await writing;
      for (const [timer, job] of timers) {
        clearTimeout(timer);
        job.reject(new Error('The usage store is closing.'));
      }
      timers.clear();
    },
  };
}

export type IngestQueue = ReturnType<typeof createIngestQueue>;
