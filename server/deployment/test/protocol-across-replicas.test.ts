import { randomUUID } from 'node:crypto';
import type { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_CHANNELS,
  completedTimes,
  openThreadStream,
  readEvents,
  rootLifecycles,
  watchThread,
  within,
  type WireEvent,
} from './protocol-clients';
import {
  NYC,
  NYC_RUN,
  SF,
  SF_RUN,
  conversation,
  failureStatus,
  userInput,
  waitForMessages,
} from './test-deployment';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

const seqs = (events: WireEvent[]) => events.map((event) => event.seq);
const oneToN = (events: WireEvent[]) => events.map((_event, index) => index + 1);
const messageCount = (values: unknown) => (values as { messages: unknown[] }).messages.length;
const SF_ANSWER = "Here is the weather: It's 60 degrees and foggy in San Francisco.";

describe.skipIf(replicaServicesMissing)(
  'protocol v2 across replicas (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: 150 });
    let b: Client;
    let urlA: string;
    let urlB: string;

    beforeAll(async () => {
      await cluster.createDatabase();
      [, b] = await Promise.all([cluster.start(), cluster.start()]);
      [urlA = '', urlB = ''] = cluster.urls;
    });

    afterAll(() => cluster.stop());

    it.each(['sse', 'websocket'] as const)(
      'a ThreadStream over %s on B shows the run a command on A started, numbered as A numbers it',
      async (transport) => {
        const threadId = randomUUID();
        const onA = readEvents(urlA, threadId, { channels: ALL_CHANNELS }, completedTimes(1));
        const onB = readEvents(urlB, threadId, { channels: ALL_CHANNELS }, completedTimes(1));
        const viewer = openThreadStream(urlB, threadId, transport);
        const seen = watchThread(viewer);
        const starter = openThreadStream(urlA, threadId, 'sse');

        const { run_id } = await starter.run.start({ input: userInput(SF) });
        const output = await within(viewer.output, 15_000, 'final values on B');

        expect(messageCount(output)).toBe(4);
        expect(seen.values.map(messageCount)).toEqual([1, 2, 3, 4]);
        expect(seen.texts).toContain(SF_ANSWER);
        const [eventsA, eventsB] = await Promise.all([onA, onB]);
        // The same events, seq, event ids and timestamps on both replicas.
        expect(eventsB).toEqual(eventsA);
        expect(seqs(eventsB)).toEqual(oneToN(eventsB));
        expect(eventsB.every((event) => event.event_id === String(event.seq))).toBe(true);
        expect(rootLifecycles(eventsB)).toEqual(['running', 'completed']);
        expect((await b.runs.get(threadId, run_id ?? '')).status).toBe('success');
        await Promise.all([viewer.close(), starter.close()]);
      },
    );

    it('a reader on B resumes with `since` after the events A served, losing and repeating nothing', async () => {
      const threadId = randomUUID();
      const starter = openThreadStream(urlA, threadId, 'websocket');
      const firstPart = readEvents(
        urlA,
        threadId,
        { channels: ALL_CHANNELS },
        (events) => events.length >= 8,
      );
      await starter.run.start({ input: userInput(SF) });
      // What a client read before it lost its connection: the first 8 events.
      const before = (await firstPart).slice(0, 8);
      expect(seqs(before)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

      const after = await readEvents(
        urlB,
        threadId,
        { channels: ALL_CHANNELS, since: before.at(-1)?.seq },
        completedTimes(1),
      );

      const resumed = [...before, ...after];
      expect(seqs(resumed)).toEqual(oneToN(resumed));
      expect(rootLifecycles(resumed)).toEqual(['running', 'completed']);
      // The whole thread, read again on A, is what the two halves make.
      const whole = await readEvents(urlA, threadId, { channels: ALL_CHANNELS }, completedTimes(1));
      expect(whole).toEqual(resumed);
      await starter.close();
    });

    it('rollback with run 1 from A and run 2 from B: readers on either replica see only run 2', async () => {
      const threadId = randomUUID();
      // A raw SSE reader on B, on every channel, connected before anything runs.
      const observed = readEvents(urlB, threadId, { channels: ALL_CHANNELS }, completedTimes(1));
      const first = openThreadStream(urlA, threadId, 'sse');
      const run1 = await first.run.start({ input: userInput(SF) });
      await waitForMessages(b, threadId, 2); // run 1 is in its tool call

      const second = openThreadStream(urlB, threadId, 'websocket');
      const run2 = await second.run.start({ input: userInput(NYC), multitaskStrategy: 'rollback' });
      // Its view subscribes once run.start has answered: run 1 is left out of its replay already.
      const secondSeen = watchThread(second);
      const output = await within(second.output, 15_000, 'run 2 values');

      expect(messageCount(output)).toBe(4);
      expect(secondSeen.values.map(messageCount)).toEqual([1, 2, 3, 4]);
      expect(JSON.stringify(secondSeen.values)).not.toContain('weather in sf');
      expect(await conversation(b, threadId)).toEqual(NYC_RUN);
      expect(await failureStatus(b.runs.get(threadId, run1.run_id ?? ''))).toBe(404);
      expect((await b.runs.get(threadId, run2.run_id ?? '')).status).toBe('success');
      const events = await observed;
      expect(seqs(events)).toEqual(oneToN(events));
      // Run 1 never ends (it did not happen); run 2 starts and completes.
      expect(rootLifecycles(events)).toEqual(['running', 'running', 'completed']);

      // The reader on B saw run 1 live, its question included.
      expect(JSON.stringify(events)).toContain('weather in sf');

      // A reader that comes later, on A, replays run 2 alone: run 1's events were taken out.
      const late = await readEvents(urlA, threadId, { channels: ALL_CHANNELS }, completedTimes(1));
      expect(rootLifecycles(late)).toEqual(['running', 'completed']);
      const rootValues = late.filter(
        (event) => event.method === 'values' && event.params.namespace.length === 0,
      );
      expect(rootValues.map((event) => messageCount(event.params.data))).toEqual([1, 2, 3, 4]);
      expect(JSON.stringify(late)).toContain('sunny in New York');
      expect(JSON.stringify(late)).not.toContain('weather in sf');
      await Promise.all([first.close(), second.close()]);
    });

    it('enqueue with run 2 from B: it streams after run 1 from A ends, numbered on from it', async () => {
      const threadId = randomUUID();
      const onA = readEvents(urlA, threadId, { channels: ALL_CHANNELS }, completedTimes(2));
      const onB = readEvents(urlB, threadId, { channels: ALL_CHANNELS }, completedTimes(2));
      const first = openThreadStream(urlA, threadId, 'sse');
      const second = openThreadStream(urlB, threadId, 'sse');
      await first.run.start({ input: userInput(SF) });
      await second.run.start({ input: userInput(NYC), multitaskStrategy: 'enqueue' });

      const [eventsA, eventsB] = await Promise.all([onA, onB]);
      expect(eventsB).toEqual(eventsA);
      expect(seqs(eventsB)).toEqual(oneToN(eventsB));
      expect(rootLifecycles(eventsB)).toEqual(['running', 'completed', 'running', 'completed']);
      expect(await conversation(b, threadId)).toEqual([...SF_RUN, ...NYC_RUN]);
      await Promise.all([first.close(), second.close()]);
    });
  },
);
