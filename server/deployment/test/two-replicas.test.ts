import type { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '@server/test/server-process';
import {
  conversation,
  failureStatus,
  NYC,
  NYC_RUN,
  SF,
  SF_RUN,
  sleep,
  userInput,
  waitForMessages,
} from './test-deployment';
import { collect } from './stream-parts';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

const LEASE_MS = 3_000;

describe.skipIf(replicaServicesMissing)(
  'two replicas on one Postgres + Redis (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: LEASE_MS, stepMs: 400 });
    const { replicas, query } = cluster;
    const startReplica = (env?: Record<string, string>) => cluster.start(env);
    let a: Client;
    let b: Client;

    beforeAll(async () => {
      await cluster.createDatabase();
      [a, b] = await Promise.all([startReplica(), startReplica()]);
    });

    afterAll(() => cluster.stop());

    /** A thread (made on A) whose first run, created on A, has written `progress` messages. */
    async function activeRunOnA(progress: number) {
      const threadId = (await a.threads.create()).thread_id;
      const run1 = await a.runs.create(threadId, 'agent', { input: userInput(SF) });
      await waitForMessages(a, threadId, progress);
      return { threadId, run1 };
    }

    it('rollback sent to B deletes the run A executes and everything it wrote', async () => {
      const { threadId, run1 } = await activeRunOnA(2);
      const run2 = await b.runs.create(threadId, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'rollback',
      });
      await b.runs.join(threadId, run2.run_id);
      expect(await failureStatus(a.runs.get(threadId, run1.run_id))).toBe(404);
      expect(await conversation(a, threadId)).toEqual(NYC_RUN);
    });

    it('interrupt sent to B keeps A`s run as interrupted with its partial state', async () => {
      const { threadId, run1 } = await activeRunOnA(2);
      const run2 = await b.runs.create(threadId, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'interrupt',
      });
      await b.runs.join(threadId, run2.run_id);
      expect((await b.runs.get(threadId, run1.run_id)).status).toBe('interrupted');
      // Run 1 stopped where the interrupt found it (mid tool, or just after it on a loaded
      // machine): its partial state stays, its final answer never comes.
      const messages = await conversation(b, threadId);
      const kept = messages.slice(0, messages.length - NYC_RUN.length);
      expect(messages.slice(kept.length)).toEqual(NYC_RUN);
      expect([2, 3]).toContain(kept.length);
      expect(kept).toEqual(SF_RUN.slice(0, kept.length));
    });

    it('reject on B refuses while A runs; enqueue on B runs after it', async () => {
      const { threadId, run1 } = await activeRunOnA(1);
      const rejected = b.runs.create(threadId, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'reject',
      });
      expect(await failureStatus(rejected)).toBe(409);
      const run2 = await b.runs.create(threadId, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'enqueue',
      });
      await b.runs.join(threadId, run2.run_id);
      expect((await a.runs.get(threadId, run1.run_id)).status).toBe('success');
      expect(await conversation(a, threadId)).toEqual([...SF_RUN, ...NYC_RUN]);
    });

    it('eight concurrent reject creates over both replicas admit exactly one run', async () => {
      const threadId = (await a.threads.create()).thread_id;
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          failureStatus(
            (i % 2 ? a : b).runs.create(threadId, 'agent', {
              input: userInput(SF),
              multitaskStrategy: 'reject',
            }),
          ),
        ),
      );
      expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 409)).toHaveLength(7);
    });

    it('triple-texting with rollback across replicas leaves only the last run', async () => {
      const { threadId } = await activeRunOnA(1);
      const second = await b.runs.create(threadId, 'agent', {
        input: userInput('weather in sf, again?'),
        multitaskStrategy: 'rollback',
      });
      const third = await a.runs.create(threadId, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'rollback',
      });
      await b.runs.join(threadId, third.run_id);
      expect(await failureStatus(a.runs.get(threadId, second.run_id))).toBe(404);
      expect((await b.runs.list(threadId)).map((run) => run.run_id)).toEqual([third.run_id]);
      expect(await conversation(b, threadId)).toEqual(NYC_RUN);
    });

    it('cancel sent to B stops the run A executes (interrupt, then rollback)', async () => {
      const first = await activeRunOnA(1);
      await b.runs.cancel(first.threadId, first.run1.run_id, true, 'interrupt');
      expect((await a.runs.get(first.threadId, first.run1.run_id)).status).toBe('interrupted');

      const second = await activeRunOnA(2);
      await b.runs.cancel(second.threadId, second.run1.run_id, true, 'rollback');
      expect(await failureStatus(a.runs.get(second.threadId, second.run1.run_id))).toBe(404);
      expect(await conversation(a, second.threadId)).toEqual([]);
    });

    /** The pid in the lease owner (`host:pid:random`) of a run, or undefined when unowned. */
    async function ownerPid(runId: string) {
      const rows = await query<{ owner: string | null }>(
        'SELECT owner FROM deployment.runs WHERE run_id = $1',
        [runId],
      );
      return rows[0]?.owner?.split(':')[1];
    }

    /** A third replica (its own settings) running "weather in sf?" on a new thread. */
    async function runOnThirdReplica(env: Record<string, string> = {}, progress = 2) {
      const c = await startReplica(env);
      const replica = replicas.at(-1) as ServerProcess;
      const threadId = (await c.threads.create()).thread_id;
      const run1 = await c.runs.create(threadId, 'agent', { input: userInput(SF) });
      await waitForMessages(c, threadId, progress);
      expect(await ownerPid(run1.run_id)).toBe(String(replica.child.pid));
      return { replica, threadId, run1 };
    }

    it('a replica killed mid-run: its run starts over on another replica within the lease', async () => {
      const { replica, threadId, run1 } = await runOnThirdReplica();
      const victimPid = String(replica.child.pid);
      replica.child.kill('SIGKILL');
      await replica.exited;
      const killedAt = Date.now();
      while ((await ownerPid(run1.run_id)) === victimPid) await sleep(100);
      expect(Date.now() - killedAt).toBeLessThan(LEASE_MS * 2);
      // Re-queued with what it wrote deleted: it ran once more from the start, whole, once.
      await a.runs.join(threadId, run1.run_id);
      expect((await a.runs.get(threadId, run1.run_id)).status).toBe('success');
      expect(await conversation(a, threadId)).toEqual(SF_RUN);
      // Its stream, read whole, says where the second attempt starts over (as the platform's).
      const stream = await collect(a.runs.joinStream(threadId, run1.run_id));
      const starts = stream.filter((part) => part.event === 'metadata').map((part) => part.data);
      expect(starts).toEqual([
        { run_id: run1.run_id, attempt: 1 },
        { run_id: run1.run_id, attempt: 2 },
      ]);
      const run2 = await a.runs.create(threadId, 'agent', { input: userInput(NYC) });
      await a.runs.join(threadId, run2.run_id);
      expect(await conversation(a, threadId)).toEqual([...SF_RUN, ...NYC_RUN]);
    });

    it('SIGTERM lets a run finish within the grace period before the replica exits', async () => {
      const { replica, threadId, run1 } = await runOnThirdReplica(
        { DEPLOYMENT_SHUTDOWN_GRACE_MS: '20000' },
        1,
      );
      replica.child.kill('SIGTERM');
      expect(await replica.exited).toBe(0);
      // Finished there before it exited: not re-queued, nothing left for another replica to do.
      expect((await a.runs.get(threadId, run1.run_id)).status).toBe('success');
      expect(await conversation(a, threadId)).toEqual(SF_RUN);
    });

    it('SIGTERM re-queues a run still going at the end of the grace period', async () => {
      const { replica, threadId, run1 } = await runOnThirdReplica({
        DEPLOYMENT_SHUTDOWN_GRACE_MS: '200',
      });
      const pid = String(replica.child.pid);
      replica.child.kill('SIGTERM');
      expect(await replica.exited).toBe(0);
      expect((await a.runs.get(threadId, run1.run_id)).status).not.toBe('error');
      await b.runs.join(threadId, run1.run_id);
      expect((await b.runs.get(threadId, run1.run_id)).status).toBe('success');
      expect(await ownerPid(run1.run_id)).not.toBe(pid);
      expect(await conversation(b, threadId)).toEqual(SF_RUN);
    });
  },
);
