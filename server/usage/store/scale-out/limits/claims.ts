import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '@server/db/postgres';
import { countRefusals } from '@server/usage/model/refusal-counts';
import {
  selectOverLimit,
  type LimitBudget,
  type Refusal,
} from '@server/usage/model/select-over-limit';
import { loadEffectiveLimits } from './limit-sql';
import {
  addToCounters,
  COUNTER_TYPES,
  distinctKeys,
  ensureCounters,
  keyOf,
  lockCounters,
  monthOf,
  type CountedRow,
  type Counts,
  type MonthBaseline,
} from './month-counters';

export interface NewClaims {
  /** Run ids no one had, now held by this claim and counted. */
  claimed: Set<string>;
  /** New root runs that would have gone over a limit: neither claimed nor counted. */
  refused: Map<string, Refusal>;
}

/**
 * Claims the ids of `rows` no one had and counts them, in one transaction holding the counter
 * rows of their (workspace, month): the month's count read under the lock plus this claim's own
 * decisions is exact, so replicas claiming at the same moment take turns and never overshoot.
 * New root runs over a limit are refused (their claim removed again before the commit, so no
 * one ever sees it) and recorded in `usage_limit_refusals`. A re-delivered id conflicts, so it
 * is never counted nor refused.
 */
export async function claimAndCount(
  pool: Pool,
  claim: string,
  rows: readonly CountedRow[],
  baseline: MonthBaseline,
): Promise<NewClaims> {
  const keys = distinctKeys(rows);
  await ensureCounters(pool, keys, baseline);
  // Inserted in id order: two claims sharing ids wait for each other in one order only.
  const sorted = [...rows].sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  return inTransaction(pool, async (client) => {
    const counters = await lockCounters(client, keys);
    const inserted = await client.query<{ run_id: string }>(
      `INSERT INTO usage.billed_runs (run_id, claim, claimed_at, workspace_id, day, long_lived)
         SELECT r.run_id, $1, now(), r.workspace_id, r.day, r.long_lived
         FROM unnest($2::uuid[], $3::uuid[], $4::date[], $5::boolean[])
           AS r (run_id, workspace_id, day, long_lived)
         ON CONFLICT (run_id) DO NOTHING RETURNING run_id::text`,
      [
        claim,
        sorted.map((row) => row.runId),
        sorted.map((row) => row.workspaceId),
        sorted.map((row) => row.day),
        sorted.map((row) => row.tier === 'long'),
      ],
    );
    const claimed = new Set(inserted.rows.map((row) => row.run_id));
    // Arrival order decides who is billed, as on DuckDB.
    const fresh = rows.filter((row) => claimed.has(row.runId));
    const refused = await overLimit(client, fresh, counters);
    if (refused.size > 0) {
      await client.query('DELETE FROM usage.billed_runs WHERE run_id = ANY($1::uuid[])', [
        [...refused.keys()],
      ]);
      await recordRefusals(client, fresh, refused);
      for (const runId of refused.keys()) claimed.delete(runId);
    }
    await addToCounters(
      client,
      fresh.filter((row) => claimed.has(row.runId)),
      1,
    );
    return { claimed, refused };
  });
}

/** The new root runs of `fresh` that go over a limit of their workspace this month. */
async function overLimit(
  client: PoolClient,
  fresh: readonly CountedRow[],
  counters: ReadonlyMap<string, Counts>,
): Promise<Map<string, Refusal>> {
  const limited = fresh.filter((row) => row.limitedProject !== undefined);
  if (limited.length === 0) return new Map();
  const limits = await loadEffectiveLimits(client, [
    ...new Set(limited.map((row) => row.workspaceId)),
  ]);
  if (limits.size === 0) return new Map();
  // Budgets per (workspace, month): a group may straddle a month's end.
  const budgets = new Map<string, LimitBudget[]>();
  const candidates = limited.map((row) => {
    const key = keyOf({ workspaceId: row.workspaceId, month: monthOf(row.day) });
    if (!budgets.has(key)) {
      const counts = counters.get(key) ?? { traces: 0, longlived: 0 };
      budgets.set(
        key,
        (limits.get(row.workspaceId) ?? []).map((limit) => ({
          limitType: limit.limitType,
          limitValue: limit.limitValue,
          used: counts[COUNTER_TYPES[limit.limitType]],
        })),
      );
    }
    return { runId: row.runId, workspaceId: key, tier: row.tier };
  });
  const refused = selectOverLimit(candidates, budgets);
  const workspaceOf = new Map(limited.map((row) => [row.runId, row.workspaceId]));
  for (const [runId, refusal] of refused) {
    const workspaceId = workspaceOf.get(runId) ?? refusal.workspaceId;
    refused.set(runId, { ...refusal, workspaceId, targetId: workspaceId });
  }
  return refused;
}

async function recordRefusals(
  client: PoolClient,
  fresh: readonly CountedRow[],
  refused: ReadonlyMap<string, Refusal>,
): Promise<void> {
  const list = countRefusals(
    fresh.map((row) => ({ runId: row.runId, projectName: row.limitedProject ?? '' })),
    refused,
  );
  await client.query(
    `INSERT INTO usage.usage_limit_refusals
     SELECT r.workspace_id, r.limit_type, r.project, date_trunc('minute', now() AT TIME ZONE 'UTC'), r.n
     FROM unnest($1::uuid[], $2::text[], $3::bytea[], $4::bigint[])
       AS r (workspace_id, limit_type, project, n)`,
    [
      list.map((entry) => entry.workspaceId),
      list.map((entry) => entry.limitType),
      list.map((entry) => Buffer.from(entry.project, 'utf8')),
      list.map((entry) => String(entry.refused)),
    ],
  );
}

/**
 * Gives back what dead claims counted: a claim older than the lease whose traces are not in
 * ClickHouse (its replica died between claim and insert, and no one re-sent its runs) is
 * removed and its runs taken off their month's counter, in one transaction under the counter
 * lock; one whose traces did land is confirmed. Removal is conditional on the claim still being
 * dead, so a replica taking it over at the same moment (`claimRuns`) keeps it, counted once.
 */
export async function releaseDeadClaims(
  pool: Pool,
  leaseMs: number,
  findStored: (rows: { runId: string; workspaceId: string; day: string }[]) => Promise<Set<string>>,
): Promise<{ confirmed: number; released: number }> {
  const dead = await pool.query<{ run_id: string; workspace_id: string; day: string }>(
    `SELECT run_id::text, workspace_id::text, to_char(day, 'YYYY-MM-DD') AS day
     FROM usage.billed_runs
     WHERE claim IS NOT NULL AND claimed_at < now() - make_interval(secs => $1)
       AND workspace_id IS NOT NULL AND day IS NOT NULL
     LIMIT 5000`,
    [leaseMs / 1000],
  );
  if (dead.rows.length === 0) return { confirmed: 0, released: 0 };
  const rows = dead.rows.map((row) => ({
    runId: row.run_id,
    workspaceId: row.workspace_id,
    day: row.day,
  }));
  const stored = await findStored(rows);
  const landed = rows.filter((row) => stored.has(row.runId)).map((row) => row.runId);
  if (landed.length > 0) {
    await pool.query(
      `UPDATE usage.billed_runs SET claim = NULL, claimed_at = NULL
       WHERE run_id = ANY($1::uuid[]) AND claim IS NOT NULL`,
      [landed],
    );
  }
  const lost = rows.filter((row) => !stored.has(row.runId));
  if (lost.length === 0) return { confirmed: landed.length, released: 0 };
  return inTransaction(pool, async (client) => {
    await lockCounters(client, distinctKeys(lost));
    const removed = await client.query<{ workspace_id: string; day: string; long_lived: boolean }>(
      `DELETE FROM usage.billed_runs
         WHERE run_id = ANY($1::uuid[]) AND claim IS NOT NULL
           AND claimed_at < now() - make_interval(secs => $2)
         RETURNING workspace_id::text, to_char(day, 'YYYY-MM-DD') AS day, long_lived`,
      [lost.map((row) => row.runId), leaseMs / 1000],
    );
    await addToCounters(
      client,
      removed.rows.map((row) => ({
        workspaceId: row.workspace_id,
        day: row.day,
        tier: row.long_lived ? ('long' as const) : ('short' as const),
      })),
      -1,
    );
    return { confirmed: landed.length, released: removed.rows.length };
  });
}
