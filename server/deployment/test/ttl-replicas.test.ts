import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

/** Sweeps every 0.3 s; threads without `ttl` keep their latest checkpoint 1.2 s after an update. */
const TTL_CONFIG = path.join(import.meta.dirname, 'fixtures/graphs/ttl.json');
const SWEPT_WITHIN = { timeout: 10_000, interval: 200 };

describe.skipIf(replicaServicesMissing)(
  'threads that expire across two replicas (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: 0 });

    beforeAll(async () => {
      await cluster.createDatabase();
    });
    afterAll(() => cluster.stop());

    it('expires and prunes threads created on one replica, seen from the other', async () => {
      const [first, second] = await Promise.all([
        cluster.start({ LANGGRAPH_CONFIG: TTL_CONFIG }),
        cluster.start({ LANGGRAPH_CONFIG: TTL_CONFIG }),
      ]);
      if (!first || !second) throw new Error('replicas did not start');
      const echo = (threadId: string, text: string) =>
        first.runs.wait(threadId, 'echo', { input: { text } });
      const status = (threadId: string) =>
        second.threads.get(threadId).then(
          () => 200,
          (error: unknown) => (error as { status?: number }).status,
        );
      const history = async (threadId: string) =>
        (await second.threads.getHistory(threadId, { limit: 100 })).length;

      const short = await Promise.all([1, 2, 3, 4].map(() => first.threads.create({ ttl: 60 })));
      const kept = await first.threads.create();
      const pruned = await first.threads.create({ ttl: 60 });
      for (const { thread_id } of [...short, kept, pruned]) {
        await echo(thread_id, 'a');
        await echo(thread_id, 'b');
      }
      // Short-lived from now on, whatever time the runs took.
      for (const { thread_id } of short) await first.threads.update(thread_id, { ttl: 0.01 });
      for (const { thread_id } of short) {
        await expect.poll(() => status(thread_id), SWEPT_WITHIN).toBe(404);
      }
      await expect.poll(() => history(kept.thread_id), SWEPT_WITHIN).toBe(1);
      expect((await second.threads.getState(kept.thread_id)).values).toEqual({
        text: 'b',
        echoed: 'b!',
      });

      const [secondUrl = ''] = cluster.urls.slice(1);
      const response = await fetch(`${secondUrl}/threads/prune`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ thread_ids: [pruned.thread_id], strategy: 'keep_latest' }),
      });
      expect(await response.json()).toEqual({ pruned_count: 1 });
      expect(await history(pruned.thread_id)).toBe(1);
      expect(await status(pruned.thread_id)).toBe(200);
    });
  },
);
