import type { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, messageCount, readUntil, runIdOf, type Part } from './stream-parts';
import { NYC, SF, SF_RUN, conversation, userInput } from './test-deployment';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

/** The ids of a stream's events are their indexes in the run's log: 0, 1, 2, ... */
const idsOf = (parts: Part[]) => parts.map((part) => Number(part.id));
const indexes = (parts: Part[]) => parts.map((_part, index) => index);

describe.skipIf(replicaServicesMissing)(
  'run streams across replicas (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: 200 });
    let a: Client;
    let b: Client;

    beforeAll(async () => {
      await cluster.createDatabase();
      [a, b] = await Promise.all([cluster.start(), cluster.start()]);
    });

    afterAll(() => cluster.stop());

    it('a run created on A streams from B with the same events and ids as on A', async () => {
      const { thread_id } = await a.threads.create();
      const run = await a.runs.create(thread_id, 'agent', {
        input: userInput(SF),
        streamMode: ['values', 'updates'],
      });

      const [onA, onB] = await Promise.all([
        collect(a.runs.joinStream(thread_id, run.run_id)),
        collect(b.runs.joinStream(thread_id, run.run_id)),
      ]);

      expect(onB).toEqual(onA);
      expect(runIdOf(onB)).toBe(run.run_id);
      expect(idsOf(onB)).toEqual(indexes(onB));
      expect(new Set(onB.map((part) => part.event))).toEqual(
        new Set(['metadata', 'values', 'updates']),
      );
      expect(onB.map(messageCount).at(-1)).toBe(SF_RUN.length);
      expect(await conversation(b, thread_id)).toEqual(SF_RUN);
    });

    it('a stream read in part on A resumes on B after Last-Event-ID, losing and repeating nothing', async () => {
      const { thread_id } = await b.threads.create();
      const leave = new AbortController();
      const before = await readUntil(
        a.runs.stream(thread_id, 'agent', {
          input: userInput(SF),
          streamResumable: true,
          onDisconnect: 'continue',
          signal: leave.signal,
        }),
        (part) => messageCount(part) === 2,
      );
      leave.abort();
      const runId = runIdOf(before);

      const after = await collect(
        b.runs.joinStream(thread_id, runId, { lastEventId: before.at(-1)?.id }),
      );

      const resumed = [...before, ...after];
      expect(idsOf(resumed)).toEqual(indexes(resumed));
      expect(after.map(messageCount)).toEqual([3, 4]);
      // The whole log, read again on A once the run has ended, is what the two halves make.
      expect(await collect(a.runs.joinStream(thread_id, runId))).toEqual(resumed);
    });

    it('a client streaming on B learns at once that A`s run was rolled back from A', async () => {
      const { thread_id } = await a.threads.create();
      const run1 = await a.runs.create(thread_id, 'agent', { input: userInput(SF) });
      const watching = readUntil(b.runs.joinStream(thread_id, run1.run_id), () => false);
      const firstValues = await readUntil(
        a.runs.joinStream(thread_id, run1.run_id),
        (part) => messageCount(part) === 2,
      );
      expect(firstValues.length).toBeGreaterThan(1);

      await a.runs.create(thread_id, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'rollback',
      });

      const seen = await watching;
      expect(seen.at(-1)).toMatchObject({ event: 'error', data: { error: 'RunRolledBack' } });
      expect(seen.slice(0, -1).map(messageCount).filter(Boolean)).toEqual([1, 2]);
    });

    it('a thread joined on B relays the runs A executes, each closed by run_done', async () => {
      const { thread_id } = await a.threads.create();
      const leave = new AbortController();
      const joined = readUntil(
        b.threads.joinStream(thread_id, { streamMode: 'lifecycle', signal: leave.signal }),
        (part) => part.event === 'run_done',
      );
      // Created on A, so executed on A at once (B only takes up runs left pending a second).
      const run = await a.runs.create(thread_id, 'agent', { input: userInput(SF) });
      const seen = await joined;
      leave.abort();
      expect(seen.map((part) => part.event)).toEqual(['metadata', 'run_done']);
      expect(seen.at(-1)?.data).toEqual({ run_id: run.run_id, status: 'success' });
    });
  },
);
