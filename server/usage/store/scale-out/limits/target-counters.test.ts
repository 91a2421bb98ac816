import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ScopedLimitWrite } from '@server/usage/store/usage-limit-store';
import {
  TEST_DATABASE_URI,
  usePostgresTestDatabase,
} from '@server/usage/test/postgres-test-database';
import { claimRuns, type ClaimRow } from '../billed-runs';
import { releaseDeadClaims } from './claims';
import { NO_BASELINE } from './month-counters';
import { upsertScopedLimit } from './scoped-limit-sql';
import {
  NO_TARGET_BASELINE,
  readTargetUsage,
  targetKeyOf,
  type TargetBaseline,
  type TargetScope,
} from './target-counters';

const DAY = new Date().toISOString().slice(0, 10);
const MONTH = `${DAY.slice(0, 7)}-01`;

describe.skipIf(!TEST_DATABASE_URI)(
  'project and user counters and limits in the claim (skipped when TEST_DATABASE_URI is unset)',
  () => {
    const db = usePostgresTestDatabase('targets');

    const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
    const nothingStored = async () => new Set<string>();
    const workspace = async () => {
      const id = randomUUID();
      await db.pool.query(
        `INSERT INTO usage.workspaces (id, display_name, created_at) VALUES ($1, 'w', now())`,
        [id],
      );
      return id;
    };
    const limit = (write: Omit<ScopedLimitWrite, 'extendedShare' | 'derived' | 'limitType'>) =>
      upsertScopedLimit(db.pool, {
        ...write,
        limitType: 'monthly_traces',
        extendedShare: null,
        derived: null,
      });
    const roots = (
      workspaceId: string,
      projectId: string,
      userId: string | null,
      runIds: string[],
    ): ClaimRow[] =>
      runIds.map((runId) => ({
        runId,
        workspaceId,
        day: DAY,
        limitedProject: 'p',
        projectId,
        userId,
      }));
    const used = async (scope: TargetScope, targetId: string) => {
      const key = { scope, targetId, month: MONTH };
      return (await readTargetUsage(db.pool, [key], NO_TARGET_BASELINE)).get(targetKeyOf(key));
    };

    it('refuses exactly the runs over a project limit when 8 replicas claim at once, and no other project', async () => {
      const ws = await workspace();
      const [capped = '', free = ''] = ids(2);
      await limit({ tenantId: ws, scope: 'project', targetId: capped, limitValue: 37 });
      const replicas = Array.from({ length: 8 }, () => db.openPool(2));
      try {
        const outcomes = await Promise.all(
          replicas.flatMap((replica) =>
            Array.from({ length: 5 }, () =>
              claimRuns(
                replica,
                randomUUID(),
                [...roots(ws, capped, null, ids(3)), ...roots(ws, free, null, ids(2))],
                nothingStored,
              ),
            ),
          ),
        );
        const claimed = outcomes.reduce((sum, outcome) => sum + outcome.claimed.size, 0);
        const refusals = outcomes.flatMap((outcome) => [...outcome.refused.values()]);
        // 120 runs of the capped project for 37 places, 80 of the free one for all of them.
        expect({ claimed, refused: refusals.length }).toEqual({
          claimed: 37 + 80,
          refused: 120 - 37,
        });
        for (const refusal of refusals) {
          expect(refusal).toEqual({
            workspaceId: ws,
            limitType: 'monthly_traces',
            limitValue: 37,
            scope: 'project',
            targetId: capped,
          });
        }
        expect(await used('project', capped)).toBe(37);
        expect(await used('project', free)).toBe(80);
      } finally {
        await Promise.all(replicas.map((replica) => replica.end()));
      }
    });

    it("counts a user's traces in every workspace and refuses them only where the limit is", async () => {
      const [limited, other] = [await workspace(), await workspace()];
      const user = randomUUID();
      await limit({ tenantId: limited, scope: 'user', targetId: user, limitValue: 5 });
      const elsewhere = await claimRuns(
        db.pool,
        randomUUID(),
        roots(other, randomUUID(), user, ids(3)),
        nothingStored,
      );
      expect(elsewhere.claimed.size).toBe(3);
      const here = await claimRuns(
        db.pool,
        randomUUID(),
        roots(limited, randomUUID(), user, ids(4)),
        nothingStored,
      );
      expect(here.claimed.size).toBe(2);
      expect([...here.refused.values()][0]).toMatchObject({ scope: 'user', targetId: user });
      // Another user of the same workspace is not held to it.
      const someoneElse = await claimRuns(
        db.pool,
        randomUUID(),
        roots(limited, randomUUID(), randomUUID(), ids(4)),
        nothingStored,
      );
      expect(someoneElse.claimed.size).toBe(4);
      expect(await used('user', user)).toBe(5);
    });

    it('never counts a resend, starts from the baseline, and takes back what a dead claim counted', async () => {
      const ws = await workspace();
      const project = randomUUID();
      await limit({ tenantId: ws, scope: 'project', targetId: project, limitValue: 10 });
      const baseline: TargetBaseline = async (keys) =>
        new Map(keys.map((key) => [targetKeyOf(key), key.scope === 'project' ? 6 : 0]));
      const runs = ids(3);
      const claim = randomUUID();
      const first = await claimRuns(
        db.pool,
        claim,
        roots(ws, project, null, runs),
        nothingStored,
        NO_BASELINE,
        baseline,
      );
      expect(first.claimed.size).toBe(3);
      expect(await used('project', project)).toBe(9);
      // The replica died between claim and insert: a resend within the lease waits, not counted.
      const resend = await claimRuns(
        db.pool,
        randomUUID(),
        roots(ws, project, null, runs),
        nothingStored,
      );
      expect(resend.waiting.size).toBe(3);
      expect(await used('project', project)).toBe(9);
      await db.pool.query(
        `UPDATE usage.billed_runs SET claimed_at = now() - interval '60 seconds' WHERE claim = $1`,
        [claim],
      );
      expect(await releaseDeadClaims(db.pool, 15_000, nothingStored)).toEqual({
        confirmed: 0,
        released: 3,
      });
      expect(await used('project', project)).toBe(6);
      // The room given back is billed again, to the limit and no further.
      const again = await claimRuns(
        db.pool,
        randomUUID(),
        roots(ws, project, null, [...runs, ...ids(2)]),
        nothingStored,
      );
      expect({ claimed: again.claimed.size, refused: again.refused.size }).toEqual({
        claimed: 4,
        refused: 1,
      });
      expect(await used('project', project)).toBe(10);
    });
  },
);
