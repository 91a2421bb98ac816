import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '@server/db/postgres';
import { countRefusals } from '@server/usage/model/refusal-counts';
import type { Refusal } from '@server/usage/model/select-over-limit';
import { selectRefusals } from './claim-budgets';
import {
  addToCounters,
  distinctKeys,
  ensureCounters,
  lockCounters,
  type CountedRow,
  type MonthBaseline,
} from './month-counters';
import {
  addToTargetCounters,
  distinctTargets,
  ensureTargetCounters,
  lockTargetCounters,
  NO_TARGET_BASELINE,
  type TargetBaseline,
} from './target-counters';

export interface NewClaims {
  /** Run ids no one had, now held by this claim and counted. */
  claimed: Set<string>;
  /** New root runs that would have gone over a limit: neither claimed nor counted. */
  refused: Map<string, Refusal>;
}

const uuidOrNull = (id: string | null | undefined) => (id ? id : null);

/**
 * Claims the ids of `rows` no one had and counts them, in one transaction holding the counter
 * rows of their (workspace, month) and of their (workspace, project or user, month): the
 * counts read under the locks plus this claim's own decisions are exact, so replicas claiming at
 * the same moment take turns and never overshoot a workspace, project, user or spend limit.
 * New root runs over a limit are refused (their claim removed again before the commit, so no
 * one ever sees it) and recorded in `usage_limit_refusals`. A re-delivered id conflicts, so it
 * is never counted nor refused.
 */
export async function claimAndCount(
  pool: Pool,
  claim: string,
  rows: readonly CountedRow[],
  baseline: MonthBaseline,
  targetBaseline: TargetBaseline = NO_TARGET_BASELINE,
): Promise<NewClaims> {
  const keys = distinctKeys(rows);
  const targets = distinctTargets(rows);
  await ensureCounters(pool, keys, baseline);
  await ensureTargetCounters(pool, targets, targetBaseline);
  // Inserted in id order: two claims sharing ids wait for each other in one order only.
  const sorted = [...rows].sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  return inTransaction(pool, async (client) => {
    const workspaces = await lockCounters(client, keys);
    const targetCounts = await lockTargetCounters(client, targets);
    const inserted = await client.query<{ run_id: string }>(
      `INSERT INTO usage.billed_runs
         (run_id, claim, claimed_at, workspace_id, day, long_lived, project_id, user_id)
         SELECT r.run_id, $1, now(), r.workspace_id, r.day, r.long_lived, r.project_id, r.user_id
         FROM unnest($2::uuid[], $3::uuid[], $4::date[], $5::boolean[], $6::uuid[], $7::uuid[])
           AS r (run_id, workspace_id, day, long_lived, project_id, user_id)
         ON CONFLICT (run_id) DO NOTHING RETURNING run_id::text`,
      [
        claim,
        sorted.map((row) => row.runId),
        sorted.map((row) => row.workspaceId),
        sorted.map((row) => row.day),
        sorted.map((row) => row.tier === 'long'),
        sorted.map((row) => uuidOrNull(row.projectId)),
        sorted.map((row) => uuidOrNull(row.userId)),
      ],
    );
    const claimed = new Set(inserted.rows.map((row) => row.run_id));
    // Arrival order decides who is billed, as on DuckDB.
    const fresh = rows.filter((row) => claimed.has(row.runId));
    const refused = await selectRefusals(client, fresh, { workspaces, targets: targetCounts });
    if (refused.size > 0) {
      await client.query('DELETE FROM usage.billed_runs WHERE run_id = ANY($1::uuid[])', [
        [...refused.keys()],
      ]);
      await recordRefusals(client, fresh, refused);
      for (const runId of refused.keys()) claimed.delete(runId);
    }
    const counted = fresh.filter((row) => claimed.has(row.runId));
    await addToCounters(client, counted, 1);
    await addToTargetCounters(client, counted, 1);
    return { claimed, refused };
  });
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
       (workspace_id, limit_type, project_name, minute, refused, scope, target_id, spend)
     SELECT r.workspace_id, r.limit_type, r.project, date_trunc('minute', now() AT TIME ZONE 'UTC'),
       r.n, r.scope, r.target_id, r.spend
     FROM unnest($1::uuid[], $2::text[], $3::bytea[], $4::bigint[], $5::text[], $6::uuid[],
       $7::boolean[]) AS r (workspace_id, limit_type, project, n, scope, target_id, spend)`,
    [
      list.map((entry) => entry.workspaceId),
      list.map((entry) => entry.limitType),
      list.map((entry) => Buffer.from(entry.project, 'utf8')),
      list.map((entry) => String(entry.refused)),
      list.map((entry) => entry.scope),
      list.map((entry) => entry.targetId),
      list.map((entry) => entry.spend),
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
    const removed = await client.query<{
      workspace_id: string;
      day: string;
      long_lived: boolean;
      project_id: string | null;
      user_id: string | null;
    }>(
      `DELETE FROM usage.billed_runs
         WHERE run_id = ANY($1::uuid[]) AND claim IS NOT NULL
           AND claimed_at < now() - make_interval(secs => $2)
         RETURNING workspace_id::text, to_char(day, 'YYYY-MM-DD') AS day, long_lived,
           project_id::text, user_id::text`,
      [lost.map((row) => row.runId), leaseMs / 1000],
    );
    const released = removed.rows.map((row) => ({
      workspaceId: row.workspace_id,
      day: row.day,
      tier: row.long_lived ? ('long' as const) : ('short' as const),
      projectId: row.project_id,
      userId: row.user_id,
    }));
    await lockTargetCounters(client, distinctTargets(released));
    await addToCounters(client, released, -1);
    await addToTargetCounters(client, released, -1);
    return { confirmed: landed.length, released: removed.rows.length };
  });
}
