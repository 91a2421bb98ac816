import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  TEST_DATABASE_URI,
  usePostgresTestDatabase,
} from '@server/usage/test/postgres-test-database';
import { claimRuns, confirmClaim, type ClaimRow } from '../billed-runs';
import { upsertLimit } from './limit-sql';
import { releaseDeadClaims } from './claims';
import { readMonthUsage, type MonthBaseline } from './month-counters';

const DAY = new Date().toISOString().slice(0, 10);
const MONTH = `${DAY.slice(0, 7)}-01`;

describe.skipIf(!TEST_DATABASE_URI)(
  'month counters and limits in the claim (skipped when TEST_DATABASE_URI is unset)',
  () => {
    const db = usePostgresTestDatabase('counters');

    /** A workspace of its own (created before any org default) with a monthly_traces limit. */
    const limitedWorkspace = async (limitValue: number | null) => {
      const id = randomUUID();
      await db.pool.query(
        `INSERT INTO usage.workspaces (id, display_name, created_at) VALUES ($1, 'w', now())`,
        [id],
      );
      if (limitValue !== null)
        await upsertLimit(db.pool, { tenantId: id, limitType: 'monthly_traces', limitValue });
      return id;
    };
    const roots = (workspaceId: string, ids: string[]): ClaimRow[] =>
      ids.map((runId) => ({ runId, workspaceId, day: DAY, limitedProject: 'p' }));
    const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
    const nothingStored = async () => new Set<string>();
    const noBaseline: MonthBaseline = async () => new Map();
    const used = async (workspaceId: string) =>
      (await readMonthUsage(db.pool, [workspaceId], MONTH, noBaseline)).get(workspaceId)
        ?.monthly_traces;

    it('starts a month from its baseline, counts new ids once and refuses past the limit', async () => {
      const workspace = await limitedWorkspace(10);
      const baseline: MonthBaseline = async (keys) =>
        new Map(
          keys.map((key) => [`${key.workspaceId}|${key.month}`, { traces: 7, longlived: 0 }]),
        );
      const runs = ids(5);
      const first = await claimRuns(
        db.pool,
        randomUUID(),
        roots(workspace, runs),
        nothingStored,
        baseline,
      );
      expect(first.claimed).toEqual(new Set(runs.slice(0, 3)));
      expect([...first.refused.keys()]).toEqual(runs.slice(3));
      expect(first.refused.get(runs[3] ?? '')).toEqual({
        workspaceId: workspace,
        limitType: 'monthly_traces',
        limitValue: 10,
        scope: 'workspace',
        targetId: workspace,
      });
      expect(await used(workspace)).toBe(10);
      const claim = randomUUID();
      await db.pool.query(
        'UPDATE usage.billed_runs SET claim = $1 WHERE run_id = ANY($2::uuid[])',
        [claim, runs.slice(0, 3)],
      );
      await confirmClaim(db.pool, claim);
      // Re-delivered: duplicates, neither counted nor refused; the refused ones are refused again.
      const again = await claimRuns(db.pool, randomUUID(), roots(workspace, runs), nothingStored);
      expect(again.duplicates).toEqual(new Set(runs.slice(0, 3)));
      expect([...again.refused.keys()]).toEqual(runs.slice(3));
      expect(await used(workspace)).toBe(10);
    });

    it('gives back what a dead claim counted when its traces never landed, and only then', async () => {
      const workspace = await limitedWorkspace(4);
      const lost = ids(2);
      const landed = ids(2);
      const claim = randomUUID();
      const taken = await claimRuns(
        db.pool,
        claim,
        roots(workspace, [...lost, ...landed]),
        nothingStored,
      );
      expect(taken.claimed.size).toBe(4);
      // The replica was killed -9 between the claim and the confirmation, 60 s ago.
      await db.pool.query(
        `UPDATE usage.billed_runs SET claimed_at = now() - interval '60 seconds' WHERE claim = $1`,
        [claim],
      );
      expect(
        (await claimRuns(db.pool, randomUUID(), roots(workspace, ids(1)), nothingStored)).refused
          .size,
      ).toBe(1);
      const released = await releaseDeadClaims(db.pool, 15_000, async () => new Set(landed));
      expect(released).toEqual({ confirmed: 2, released: 2 });
      expect(await used(workspace)).toBe(2);
      // The room it gave back is billed again; the landed runs stay duplicates.
      const next = await claimRuns(
        db.pool,
        randomUUID(),
        roots(workspace, [...landed, ...ids(3)]),
        nothingStored,
      );
      expect(next.duplicates).toEqual(new Set(landed));
      expect(next.claimed.size).toBe(2);
      expect(next.refused.size).toBe(1);
      expect(await used(workspace)).toBe(4);
    });

    it('counts a dead claim taken over by a resend once', async () => {
      const workspace = await limitedWorkspace(null);
      const runs = ids(3);
      const claim = randomUUID();
      await claimRuns(db.pool, claim, roots(workspace, runs), nothingStored);
      await db.pool.query(
        `UPDATE usage.billed_runs SET claimed_at = now() - interval '60 seconds' WHERE claim = $1`,
        [claim],
      );
      const resend = await claimRuns(db.pool, randomUUID(), roots(workspace, runs), nothingStored);
      expect(resend.claimed).toEqual(new Set(runs));
      expect(await used(workspace)).toBe(3);
      expect(await releaseDeadClaims(db.pool, 15_000, nothingStored)).toEqual({
        confirmed: 0,
        released: 0,
      });
      expect(await used(workspace)).toBe(3);
    });

    it('never overshoots when 8 replicas claim across the limit at the same moment', async () => {
      const workspace = await limitedWorkspace(100);
      const replicas = Array.from({ length: 8 }, () => db.openPool(2));
      try {
        const outcomes = await Promise.all(
          replicas.flatMap((replica) =>
            Array.from({ length: 5 }, () =>
              claimRuns(replica, randomUUID(), roots(workspace, ids(7)), nothingStored),
            ),
          ),
        );
        const claimed = outcomes.reduce((sum, outcome) => sum + outcome.claimed.size, 0);
        const refused = outcomes.reduce((sum, outcome) => sum + outcome.refused.size, 0);
        expect({ claimed, refused }).toEqual({ claimed: 100, refused: 8 * 5 * 7 - 100 });
        expect(await used(workspace)).toBe(100);
        const stored = await db.pool.query(
          'SELECT count(*)::int AS n FROM usage.billed_runs WHERE workspace_id = $1',
          [workspace],
        );
        expect(stored.rows[0]).toEqual({ n: 100 });
      } finally {
        await Promise.all(replicas.map((replica) => replica.end()));
      }
    });
  },
);
