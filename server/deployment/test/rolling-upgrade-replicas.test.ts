import type { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Part } from './stream-parts';
import { SF, SF_RUN, conversation, userInput } from './test-deployment';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

/** How long the runs of the replicas under test are leased to their (absent) owners. */
const LEASE_MS = 8_000;

describe.skipIf(replicaServicesMissing)(
  'runs of replicas that hold no liveness lock (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 30_000, stepMs: 100 });
    let live: Client;

    beforeAll(async () => {
      await cluster.createDatabase();
      live = await cluster.start();
    });
    afterAll(() => cluster.stop());

    /**
     * A run recorded as running on `owner` until `LEASE_MS` from now, which no process executes:
     * queued with a delay (so the live replica leaves it), then handed to `owner` as its claim
     * would. Answers where it is and when its lease ends (epoch ms, the database's clock).
     */
    async function runOwnedBy(owner: string) {
      const { thread_id } = await live.threads.create();
      const run = await live.runs.create(thread_id, 'agent', {
        input: userInput(SF),
        afterSeconds: 600,
      });
      const [row] = await cluster.query<{ lease_until: Date }>(
        `UPDATE deployment.runs SET status = 'running', owner = $2, attempt = 1,
           lease_until = now() + $3 * interval '1 millisecond',
           kwargs = (kwargs::jsonb - 'not_before')::json
         WHERE run_id = $1 AND status = 'pending' RETURNING lease_until`,
        [run.run_id, owner, LEASE_MS],
      );
      expect(row).toBeDefined();
      return {
        threadId: thread_id,
        runId: run.run_id,
        leaseUntil: row?.lease_until.getTime() ?? 0,
      };
    }

    /** When the run's stream shows its first event (the attempt that takes it over), and it. */
    async function firstEvent(threadId: string, runId: string) {
      for await (const part of live.runs.joinStream(threadId, runId)) {
        if ((part as Part).event !== '') return { at: Date.now(), part: part as Part };
      }
      throw new Error('the stream ended without an event');
    }

    it('takes a run of an older release over only once its lease ends', async () => {
      // An owner id without the liveness suffix: a replica of a release that holds no lock.
      const { threadId, runId, leaseUntil } = await runOwnedBy('old-release-host:4242:0a1b2c3d');
      const first = await firstEvent(threadId, runId);
      const lateMs = first.at - leaseUntil;
      console.info(`rolling-upgrade-replicas: taken over ${lateMs} ms after the lease ended`);

      expect(first.part).toMatchObject({ event: 'metadata', data: { attempt: 2 } });
      // Not before its lease ended (the sweep reads `now()` of the same clock), and soon after.
      expect(lateMs).toBeGreaterThanOrEqual(0);
      expect(lateMs).toBeLessThan(5_000);
      await live.runs.join(threadId, runId);
      expect((await live.runs.get(threadId, runId)).status).toBe('success');
      expect(await conversation(live, threadId)).toEqual(SF_RUN);
    }, 60_000);

    it('takes a run of a replica of this release whose lock is gone over before its lease ends', async () => {
      const { threadId, runId, leaseUntil } = await runOwnedBy('gone-host:4243:0a1b2c3d+live');
      const first = await firstEvent(threadId, runId);
      const earlyMs = leaseUntil - first.at;
      console.info(`rolling-upgrade-replicas: taken over ${earlyMs} ms before the lease ended`);

      expect(first.part).toMatchObject({ event: 'metadata', data: { attempt: 2 } });
      expect(earlyMs).toBeGreaterThan(3_000);
      await live.runs.join(threadId, runId);
      expect((await live.runs.get(threadId, runId)).status).toBe('success');
    }, 60_000);
  },
);
