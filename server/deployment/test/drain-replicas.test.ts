import type { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '@server/test/server-process';
import {
  conversation,
  NYC,
  NYC_RUN,
  SF,
  SF_RUN,
  userInput,
  waitForMessages,
} from './test-deployment';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

describe.skipIf(replicaServicesMissing)(
  'drain on SIGTERM (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: 300 });
    let survivor: Client;

    beforeAll(async () => {
      await cluster.createDatabase();
      survivor = await cluster.start();
    });
    afterAll(() => cluster.stop());

    async function ownerPid(runId: string) {
      const rows = await cluster.query<{ owner: string | null }>(
        'SELECT owner FROM deployment.runs WHERE run_id = $1',
        [runId],
      );
      return rows[0]?.owner?.split(':')[1];
    }

    it('hands a running run, the run queued behind it and a delayed run to the other replica', async () => {
      const leaving = await cluster.start({ DEPLOYMENT_SHUTDOWN_GRACE_MS: '200' });
      const replica = cluster.replicas.at(-1) as ServerProcess;
      const pid = String(replica.child.pid);
      const busy = (await leaving.threads.create()).thread_id;
      const running = await leaving.runs.create(busy, 'agent', { input: userInput(SF) });
      const queued = await leaving.runs.create(busy, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'enqueue',
      });
      const idle = (await leaving.threads.create()).thread_id;
      const delayed = await leaving.runs.create(idle, 'agent', {
        input: userInput(NYC),
        afterSeconds: 1,
      });
      await waitForMessages(leaving, busy, 2);
      expect(await ownerPid(running.run_id)).toBe(pid);

      replica.child.kill('SIGTERM');
      expect(await replica.exited).toBe(0);
      for (const [threadId, run] of [
        [busy, running],
        [busy, queued],
        [idle, delayed],
      ] as const) {
        await survivor.runs.join(threadId, run.run_id);
        expect((await survivor.runs.get(threadId, run.run_id)).status).toBe('success');
        expect(await ownerPid(run.run_id)).not.toBe(pid);
      }
      // Each ran whole once: the interrupted attempt's writes were taken back.
      expect(await conversation(survivor, busy)).toEqual([...SF_RUN, ...NYC_RUN]);
      expect(await conversation(survivor, idle)).toEqual(NYC_RUN);
    });
  },
);
