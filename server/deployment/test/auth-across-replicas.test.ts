import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from './fixtures/auth/jwt-auth.mjs';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

const AUTH = path.resolve(import.meta.dirname, 'fixtures/auth/jwt-auth.mts');
const SCOPES = ['me', 'read', 'write'];

describe.skipIf(replicaServicesMissing)(
  'custom auth across two replicas (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: 0 });
    const as = (url: string, user: string) =>
      new Client({
        apiUrl: url,
        defaultHeaders: { Authorization: `Bearer ${tokenFor(user, SCOPES)}` },
        callerOptions: { maxRetries: 0 },
      });

    beforeAll(async () => {
      await cluster.createDatabase();
      // Custom auth protects the cluster: no LANGGRAPH_AUTH_TYPE needed to start.
      const env = {
        LANGGRAPH_AUTH: JSON.stringify({ path: `${AUTH}:auth` }),
        LANGGRAPH_AUTH_TYPE: '',
      };
      await Promise.all([cluster.start(env), cluster.start(env)]);
    });
    afterAll(() => cluster.stop());

    it("keeps a user's thread from another user on every replica", async () => {
      const [first = '', second = ''] = cluster.urls;
      const { thread_id } = await as(first, 'johndoe').threads.create({ metadata: { n: 1 } });
      expect((await as(second, 'johndoe').threads.get(thread_id)).metadata).toMatchObject({
        owner: 'johndoe',
      });
      await expect(as(second, 'alice').threads.get(thread_id)).rejects.toThrow(/HTTP 404/);
      expect(await as(second, 'alice').threads.search({ metadata: { n: 1 } })).toEqual([]);
      const mine = await as(second, 'johndoe').threads.search({ metadata: { n: 1 } });
      expect(mine.map((thread) => thread.thread_id)).toEqual([thread_id]);
    });

    it("answers 404 on every replica to another user's run: state, history, join, streams", async () => {
      const [first = '', second = ''] = cluster.urls;
      const john = as(first, 'johndoe');
      const alice = as(second, 'alice');
      const { thread_id } = await john.threads.create();
      const input = { messages: [{ role: 'user', content: 'weather in sf?' }] };
      const run = await john.runs.create(thread_id, 'agent', { input });
      await john.runs.join(thread_id, run.run_id);

      const attempts = [
        () => alice.threads.getState(thread_id),
        () => alice.threads.getHistory(thread_id),
        () => alice.runs.get(thread_id, run.run_id),
        () => alice.runs.join(thread_id, run.run_id),
        () => alice.runs.wait(thread_id, 'agent', { input }),
        () => alice.threads.delete(thread_id),
      ];
      for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/HTTP 404/);
      await expect(alice.runs.joinStream(thread_id, run.run_id).next()).rejects.toThrow(/HTTP 404/);
      await expect(alice.runs.stream(thread_id, 'agent', { input }).next()).rejects.toThrow(
        /HTTP 404/,
      );
      expect((await as(second, 'johndoe').runs.get(thread_id, run.run_id)).status).toBe('success');
    });
  },
);
