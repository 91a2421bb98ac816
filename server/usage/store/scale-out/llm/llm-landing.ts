import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Pool } from 'pg';
import type { RolledLlmRun } from '@server/usage/model/llm-rollup';
import { CLAIM_LEASE_MS } from '../billed-runs';
import { INSERT_TIMEOUT_MS, utcDay, withinDeadline } from '../clickhouse/client';
import { findRunIds } from '../clickhouse/find-run-ids';

/** One LLM run stored in Postgres, as `llm_runs` in ClickHouse holds it (no model, no source). */
export type LandingRun = Omit<RolledLlmRun, 'modelName' | 'modelProvider' | 'costSource'> & {
  runId: string;
};

/** Dead landings taken per statement by the sweep (it goes on while it finds a full one). */
const SWEEP_ROWS = 5_000;

async function insertRuns(client: ClickHouseClient, runs: readonly LandingRun[]): Promise<void> {
  if (runs.length === 0) return;
  await withinDeadline(INSERT_TIMEOUT_MS, (signal) =>
    client.insert({
      table: 'llm_runs',
      format: 'JSONEachRow',
      values: runs.map((run) => ({
        run_id: run.runId,
        workspace_id: run.workspaceId,
        project_id: run.projectId,
        user_id: run.userId,
        api_key_id: run.apiKeyId,
        ingested_ms: run.ingestedMs,
        day: utcDay(run.ingestedMs),
        input_tokens: run.inputTokens,
        output_tokens: run.outputTokens,
        cache_read_tokens: run.cacheReadTokens,
        cache_creation_tokens: run.cacheCreationTokens,
        total_tokens: run.totalTokens,
        cost_nanos: run.costNanos ?? 0,
        priced: run.costNanos === null ? 0 : 1,
      })),
      abort_signal: signal,
    }),
  );
}

/** The landings of `claims` are done: their runs are in ClickHouse. */
async function confirmLandings(pool: Pool, claims: readonly string[]): Promise<void> {
  await pool.query(
    'UPDATE usage.llm_runs SET landing = NULL, landing_at = NULL WHERE landing = ANY($1::uuid[])',
    [claims],
  );
}

interface LandingJob {
  claim: string;
  runs: readonly LandingRun[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Sends runs just stored in Postgres under landing claims to ClickHouse, then confirms the
 * claims: the landings that arrive while one is under way go together (one insert, one
 * confirmation; ClickHouse 18.16 takes tens of ms per insert whatever its size). Should an
 * insert fail (or this replica die), the claims outlive their lease and the sweep of any
 * replica lands their runs (`landDeadClaims`): a run is in ClickHouse once.
 */
export function createLandingQueue(pool: Pool, client: ClickHouseClient) {
  let pending: LandingJob[] = [];
  let writing: Promise<void> | null = null;
  async function drain(): Promise<void> {
    while (pending.length > 0) {
      const jobs = pending;
      pending = [];
      try {
        await insertRuns(
          client,
          jobs.flatMap((job) => job.runs),
        );
        await confirmLandings(
          pool,
          jobs.map((job) => job.claim),
        );
        jobs.forEach((job) => job.resolve());
      } catch (error) {
        jobs.forEach((job) => job.reject(error));
      }
    }
    writing = null;
  }
  return {
    /** Resolves once the runs of `claim` are in ClickHouse and the claim is confirmed. */
    land(claim: string, runs: readonly LandingRun[]): Promise<void> {
      if (runs.length === 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        pending.push({ claim, runs, resolve, reject });
        writing ??= drain();
      });
    },
    /** Waits for the landing under way. */
    async close(): Promise<void> {
      await writing;
    },
  };
}

export type LandingQueue = ReturnType<typeof createLandingQueue>;

interface DeadRow {
  run_id: string;
  workspace_id: string;
  project_id: string;
  user_id: string | null;
  api_key_id: string | null;
  ingested_ms: string;
  input_tokens: string;
  output_tokens: string;
  cache_read_tokens: string;
  cache_creation_tokens: string;
  total_tokens: string;
  cost_nanos: string | null;
}

/**
 * Lands the runs whose claim outlived its lease: those of a replica that died or whose insert
 * failed, and those stored before ClickHouse held LLM usage (or by an earlier version), which
 * carry the nil claim. Each statement takes up to 5,000 of them under a new claim, atomically
 * (a run is taken by one sweep), sends the ones ClickHouse lacks and confirms them all. A claim
 * is taken over only after a lease (15 s), far longer than an insert may take (3 s), so no
 * insert of the old owner lands afterwards. Returns how many runs were sent.
 */
export async function landDeadClaims(
  pool: Pool,
  client: ClickHouseClient,
  leaseMs: number = CLAIM_LEASE_MS,
): Promise<number> {
  let sent = 0;
  for (;;) {
    const claim = randomUUID();
    const taken = await pool.query<DeadRow>(
      `UPDATE usage.llm_runs SET landing = $1, landing_at = now()
       WHERE run_id IN (
         SELECT run_id FROM usage.llm_runs
         WHERE landing IS NOT NULL AND landing_at < now() - make_interval(secs => $2)
         ORDER BY landing_at LIMIT ${SWEEP_ROWS}
         FOR UPDATE SKIP LOCKED)
       RETURNING run_id::text, workspace_id::text, project_id::text, user_id::text,
         api_key_id::text, ingested_ms::text, input_tokens::text, output_tokens::text,
         cache_read_tokens::text, cache_creation_tokens::text, total_tokens::text,
         cost_nanos::text`,
      [claim, leaseMs / 1000],
    );
    if (taken.rows.length === 0) return sent;
    const runs = taken.rows.map((row) => ({
      runId: row.run_id,
      workspaceId: row.workspace_id,
      projectId: row.project_id,
      userId: row.user_id,
      apiKeyId: row.api_key_id,
      ingestedMs: Number(row.ingested_ms),
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      cacheReadTokens: Number(row.cache_read_tokens),
      cacheCreationTokens: Number(row.cache_creation_tokens),
      totalTokens: Number(row.total_tokens),
      costNanos: row.cost_nanos === null ? null : Number(row.cost_nanos),
    }));
    const landed = await findRunIds(
      client,
      'llm_runs',
      runs.map((run) => ({ ...run, day: utcDay(run.ingestedMs) })),
    );
    const missing = runs.filter((run) => !landed.has(run.runId));
    await insertRuns(client, missing);
    await confirmLandings(pool, [claim]);
    sent += missing.length;
    if (taken.rows.length < SWEEP_ROWS) return sent;
  }
}
