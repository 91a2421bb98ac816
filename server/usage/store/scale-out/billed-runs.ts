import type { Pool } from 'pg';
import type { TraceTier } from '@contracts/usage/limit-period';
import type { Refusal } from '@server/usage/model/select-over-limit';
import { claimAndCount } from './limits/claims';
import { NO_BASELINE, type MonthBaseline } from './limits/month-counters';
import { NO_TARGET_BASELINE, type TargetBaseline } from './limits/target-counters';

/**
 * How long a claim protects its run ids. A claim older than this belongs to a replica that died
 * (kill -9, lost connection) or whose ClickHouse insert failed; its ids are then settled by
 * looking for their traces in ClickHouse. Well above the insert timeout, so no insert of the old
 * owner can still land once it is taken over.
 */
export const CLAIM_LEASE_MS = 15_000;

/** A run id to bill, and where its trace goes in ClickHouse (its workspace and UTC day). */
export interface ClaimRow {
  runId: string;
  workspaceId: string;
  day: string;
  /** Its retention tier (counted against long-lived limits when `long`); short when absent. */
  tier?: TraceTier;
  /** Set for a root run of `ingestRuns`: weighed against its workspace's limits. */
  limitedProject?: string;
  /** Its project's and user's ids: counted for their limits (and held to them when limited). */
  projectId?: string | null;
  userId?: string | null;
}

export interface ClaimOutcome {
  /** Ids this claim now holds: insert their traces, then `confirmClaim`. */
  claimed: Set<string>;
  /** Ids billed already (a re-delivery, or a dead claim whose trace did land). */
  duplicates: Set<string>;
  /** Ids a live claim of another batch holds: ask again shortly. */
  waiting: Set<string>;
  /** New root runs over a usage limit: not claimed, not counted (a resend may be, later). */
  refused: Map<string, Refusal>;
}

/** Of `rows` (each at a dead claim's place), the run ids whose traces are in ClickHouse. */
export type FindStored = (rows: ClaimRow[]) => Promise<Set<string>>;

interface HeldRow {
  run_id: string;
  claim: string | null;
  stale: boolean;
  workspace_id: string | null;
  day: string | null;
}

/**
 * Claims `rows` (distinct lower-case run ids) for batch `claim` in the shared billed-run set:
 * `INSERT … ON CONFLICT DO NOTHING RETURNING` takes every id no one had, in one statement, in
 * the transaction that counts them against their month and refuses those over a usage limit
 * (`limits/claims.ts`). Ids that conflict are duplicates when billed, waiting while
 * another live claim holds them, and settled when that claim is dead: billed if its trace is
 * stored (`findStored`), else taken over (counted once already, by the dead claim).
 */
export async function claimRuns(
  pool: Pool,
  claim: string,
  rows: readonly ClaimRow[],
  findStored: FindStored,
  baseline: MonthBaseline = NO_BASELINE,
  targetBaseline: TargetBaseline = NO_TARGET_BASELINE,
): Promise<ClaimOutcome> {
  const outcome: ClaimOutcome = {
    claimed: new Set(),
    duplicates: new Set(),
    waiting: new Set(),
    refused: new Map(),
  };
  if (rows.length === 0) return outcome;
  const fresh = await claimAndCount(
    pool,
    claim,
    rows.map((row) => ({ ...row, tier: row.tier ?? 'short' })),
    baseline,
    targetBaseline,
  );
  outcome.claimed = fresh.claimed;
  outcome.refused = fresh.refused;
  const others = rows.filter(
    (row) => !outcome.claimed.has(row.runId) && !outcome.refused.has(row.runId),
  );
  if (others.length === 0) return outcome;
  const held = await pool.query<HeldRow>(
    `SELECT run_id::text, claim::text, claimed_at < now() - make_interval(secs => $2) AS stale,
       workspace_id::text, to_char(day, 'YYYY-MM-DD') AS day
     FROM usage.billed_runs WHERE run_id = ANY($1::uuid[])`,
    [others.map((row) => row.runId), CLAIM_LEASE_MS / 1000],
  );
  const dead: HeldRow[] = [];
  for (const row of held.rows) {
    if (row.claim === null) outcome.duplicates.add(row.run_id);
    else if (row.stale) dead.push(row);
    else outcome.waiting.add(row.run_id);
  }
  if (dead.length > 0) await settleDead(pool, claim, dead, rows, findStored, outcome);
  return outcome;
}

async function settleDead(
  pool: Pool,
  claim: string,
  dead: HeldRow[],
  rows: readonly ClaimRow[],
  findStored: FindStored,
  outcome: ClaimOutcome,
): Promise<void> {
  const stored = await findStored(
    dead.map((row) => ({
      runId: row.run_id,
      workspaceId: row.workspace_id ?? '',
      day: row.day ?? '',
    })),
  );
  const landed = dead.filter((row) => stored.has(row.run_id));
  if (landed.length > 0) {
    await pool.query(
      `UPDATE usage.billed_runs SET claim = NULL, claimed_at = NULL WHERE run_id = ANY($1::uuid[])`,
      [landed.map((row) => row.run_id)],
    );
    for (const row of landed) outcome.duplicates.add(row.run_id);
  }
  const lost = new Set(dead.filter((row) => !stored.has(row.run_id)).map((row) => row.run_id));
  const mine = rows.filter((row) => lost.has(row.runId));
  if (mine.length === 0) return;
  // Taken over only if still dead (another replica may have settled it meanwhile).
  const taken = await pool.query<{ run_id: string }>(
    `UPDATE usage.billed_runs b SET claim = $1, claimed_at = now(),
       workspace_id = r.workspace_id, day = r.day
     FROM unnest($2::uuid[], $3::uuid[], $4::date[]) AS r (run_id, workspace_id, day)
     WHERE b.run_id = r.run_id AND b.claim IS NOT NULL
       AND b.claimed_at < now() - make_interval(secs => $5)
     RETURNING b.run_id::text`,
    [claim, ...columns(mine), CLAIM_LEASE_MS / 1000],
  );
  const took = new Set(taken.rows.map((row) => row.run_id));
  for (const row of mine) (took.has(row.runId) ? outcome.claimed : outcome.waiting).add(row.runId);
}

/** The claim's traces are stored: its ids are billed. */
export async function confirmClaim(pool: Pool, claim: string): Promise<void> {
  await pool.query(
    'UPDATE usage.billed_runs SET claim = NULL, claimed_at = NULL WHERE claim = $1',
    [claim],
  );
}

function columns(rows: readonly ClaimRow[]): [string[], string[], string[]] {
  return [
    rows.map((row) => row.runId),
    rows.map((row) => row.workspaceId),
    rows.map((row) => row.day),
  ];
}
