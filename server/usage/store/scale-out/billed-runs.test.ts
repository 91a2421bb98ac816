import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  TEST_DATABASE_URI,
  usePostgresTestDatabase,
} from '@server/usage/test/postgres-test-database';
import { claimRuns, confirmClaim, type ClaimRow } from './billed-runs';

const WORKSPACE = '7e57da7a-0000-4000-8000-000000000001';
const row = (runId: string): ClaimRow => ({ runId, workspaceId: WORKSPACE, day: '2026-11-25' });

describe.skipIf(!TEST_DATABASE_URI)(
  'the billed-run claims (skipped when TEST_DATABASE_URI is unset)',
  () => {
    const db = usePostgresTestDatabase('claims');

    const nothingStored = async () => new Set<string>();
    /** A claim of `ids` made `secondsAgo` by a replica that never confirmed it. */
    const deadClaim = async (ids: string[], secondsAgo: number) => {
      await db.pool.query(
        `INSERT INTO usage.billed_runs
         SELECT unnest($1::uuid[]), $2, now() - make_interval(secs => $3), $4, '2026-11-25'`,
        [ids, randomUUID(), secondsAgo, WORKSPACE],
      );
    };

    it('gives new ids to the first claim, then calls them duplicates once confirmed', async () => {
      const ids = [randomUUID(), randomUUID()];
      const first = randomUUID();
      const taken = await claimRuns(db.pool, first, ids.map(row), nothingStored);
      expect([...taken.claimed].sort()).toEqual([...ids].sort());
      // Confirmed or not, another batch never gets them while the claim lives.
      const meanwhile = await claimRuns(db.pool, randomUUID(), ids.map(row), nothingStored);
      expect(meanwhile.waiting.size).toBe(2);
      await confirmClaim(db.pool, first);
      const again = await claimRuns(db.pool, randomUUID(), ids.map(row), nothingStored);
      expect(again).toEqual({
        claimed: new Set(),
        duplicates: new Set(ids),
        waiting: new Set(),
        refused: new Map(),
      });
    });

    it('settles a dead claim: billed when its trace landed, else taken over once', async () => {
      const landed = randomUUID();
      const lost = randomUUID();
      await deadClaim([landed, lost], 60);
      const looked: string[] = [];
      const findStored = async (rows: ClaimRow[]) => {
        looked.push(...rows.map((r) => r.runId));
        return new Set([landed]);
      };
      const outcome = await claimRuns(db.pool, randomUUID(), [row(landed), row(lost)], findStored);
      expect(looked.sort()).toEqual([landed, lost].sort());
      expect(outcome.duplicates).toEqual(new Set([landed]));
      expect(outcome.claimed).toEqual(new Set([lost]));
      // The take-over is a live claim now: a third sender waits for it.
      const third = await claimRuns(db.pool, randomUUID(), [row(lost)], nothingStored);
      expect(third.waiting).toEqual(new Set([lost]));
    });

    it('leaves a claim younger than the lease alone', async () => {
      const id = randomUUID();
      await deadClaim([id], 1);
      const outcome = await claimRuns(db.pool, randomUUID(), [row(id)], async () => {
        throw new Error('a live claim is not looked up');
      });
      expect(outcome.waiting).toEqual(new Set([id]));
    });
  },
);
