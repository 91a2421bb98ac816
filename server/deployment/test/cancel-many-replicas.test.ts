import { Client as Client115 } from '@langchain/langgraph-sdk-115';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SF, failureStatus, userInput } from './test-deployment';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

describe.skipIf(replicaServicesMissing)(
  'runs.cancelMany across replicas (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: 400 });
    let a: Client115;
    let b: Client115;

    beforeAll(async () => {
      await cluster.createDatabase();
      await Promise.all([cluster.start(), cluster.start()]);
      [a, b] = cluster.urls.map(
        (apiUrl) => new Client115({ apiUrl, callerOptions: { maxRetries: 0 } }),
      ) as [Client115, Client115];
    });

    afterAll(() => cluster.stop());

    it('a rollback sent to B deletes the run A executes and what it wrote', async () => {
      const { thread_id } = await a.threads.create();
      const run = await a.runs.create(thread_id, 'agent', { input: userInput(SF) });
      await expect
        .poll(async () => (await a.threads.getState(thread_id)).values, { timeout: 10_000 })
        .toHaveProperty('messages.1');
      await b.runs.cancelMany({ threadId: thread_id, runIds: [run.run_id], action: 'rollback' });
      expect(await failureStatus(a.runs.get(thread_id, run.run_id))).toBe(404);
      expect(await a.runs.list(thread_id)).toEqual([]);
    });

    it('a cancel by status on B interrupts the run A executes', async () => {
      const { thread_id } = await a.threads.create();
      const run = await a.runs.create(thread_id, 'agent', { input: userInput(SF) });
      await expect
        .poll(async () => (await a.runs.get(thread_id, run.run_id)).status, { timeout: 10_000 })
        .toBe('running');
      await b.runs.cancelMany({ status: 'running' });
      expect((await a.runs.get(thread_id, run.run_id)).status).toBe('interrupted');
    });
  },
);
