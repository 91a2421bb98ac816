import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ALL_CHANNELS,
  completedTimes,
  openThreadStream,
  readEvents,
  rootLifecycles,
  watchThread,
  within,
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
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 120 });

const messageCount = (values: unknown) => (values as { messages: unknown[] }).messages.length;

describe.each(['sse', 'websocket'] as const)('ThreadStream (SDK 1.15) over %s', (transport) => {
  it('starts a run on a thread the client named, streams its messages and values', async () => {
    const threadId = randomUUID();
    const thread = openThreadStream(deployment.url, threadId, transport);
    const seen = watchThread(thread);

    const { run_id } = await thread.run.start({ input: userInput(SF) });
    const output = await within(thread.output, 10_000, 'final values');

    expect(messageCount(output)).toBe(4);
    // One snapshot per step: the input, the tool call, the tool result, the answer.
    expect(seen.values.map(messageCount)).toEqual([1, 2, 3, 4]);
    expect(seen.texts).toContain(
      "Here is the weather: It's 60 degrees and foggy in San Francisco.",
    );
    // The thread was created by the run (no POST /threads), and v1 sees the same run.
    expect(await conversation(deployment.client, threadId)).toEqual(SF_RUN);
    expect((await deployment.client.runs.get(threadId, run_id ?? '')).status).toBe('success');
    await thread.close();
  });
});

describe('double-texting over protocol v2', () => {
  it('rollback: run 1 and everything it wrote are gone, the thread holds run 2 only', async () => {
    const { client, url } = deployment;
    const threadId = randomUUID();
    // A raw SSE reader on every channel, connected before anything runs.
    const observed = readEvents(url, threadId, { channels: ALL_CHANNELS }, completedTimes(1));
    const first = openThreadStream(url, threadId, 'sse');
    const run1 = await first.run.start({ input: userInput(SF) });
    await waitForMessages(client, threadId, 2); // run 1 is in its tool call

    const second = openThreadStream(url, threadId, 'sse');
    const run2 = await second.run.start({ input: userInput(NYC), multitaskStrategy: 'rollback' });
    const output = await within(second.output, 10_000, 'run 2 values');

    expect(messageCount(output)).toBe(4);
    expect(await conversation(client, threadId)).toEqual(NYC_RUN);
    expect(await failureStatus(client.runs.get(threadId, run1.run_id ?? ''))).toBe(404);
    expect((await client.runs.get(threadId, run2.run_id ?? '')).status).toBe('success');
    expect(await client.runs.list(threadId)).toHaveLength(1);

    const events = await observed;
    // One seq per thread, across both runs: 1, 2, 3, ... with no gap and no repeat.
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
    // Run 1 never ends (it did not happen); run 2 starts and completes.
    expect(rootLifecycles(events)).toEqual(['running', 'running', 'completed']);

    // A client that comes later replays run 2 alone: run 1's events were taken out.
    const late = await readEvents(
      url,
      threadId,
      { channels: ['values', 'lifecycle'], namespaces: [[]], depth: 0 },
      completedTimes(1),
    );
    const asked = late.flatMap((event) =>
      event.method === 'values' ? [JSON.stringify(event.params.data)] : [],
    );
    expect(asked.length).toBeGreaterThan(0);
    expect(
      asked.every((values) => values.includes('nyc') && !values.includes('weather in sf')),
    ).toBe(true);
    expect(rootLifecycles(late)).toEqual(['running', 'completed']);
    await Promise.all([first.close(), second.close()]);
  });

  it('enqueue: run 2 streams after run 1 ends, numbered on from it', async () => {
    const { client, url } = deployment;
    const threadId = randomUUID();
    const thread = openThreadStream(url, threadId, 'websocket');
    await thread.run.start({ input: userInput(SF) });
    await thread.run.start({ input: userInput(NYC), multitaskStrategy: 'enqueue' });

    const events = await readEvents(url, threadId, { channels: ALL_CHANNELS }, completedTimes(2));
    expect(rootLifecycles(events)).toEqual(['running', 'completed', 'running', 'completed']);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
    expect(await conversation(client, threadId)).toEqual([...SF_RUN, ...NYC_RUN]);

    // `since` replays only what came after: the SDK resumes a dropped stream with it.
    const after = events[9]?.seq ?? 0;
    const resumed = await readEvents(
      url,
      threadId,
      { channels: ALL_CHANNELS, since: after },
      completedTimes(2),
    );
    expect(resumed.map((event) => event.seq)).toEqual(events.slice(10).map((event) => event.seq));
    await thread.close();
  });

  it('triple-text: rollback removes the running run and the one queued behind it', async () => {
    const { client, url } = deployment;
    const threadId = randomUUID();
    const observed = readEvents(url, threadId, { channels: ALL_CHANNELS }, completedTimes(1));
    const thread = openThreadStream(url, threadId, 'sse');
    const run1 = await thread.run.start({ input: userInput(SF) });
    const run2 = await thread.run.start({ input: userInput(SF), multitaskStrategy: 'enqueue' });
    await waitForMessages(client, threadId, 2);
    await thread.run.start({ input: userInput(NYC), multitaskStrategy: 'rollback' });

    const events = await observed;
    expect(rootLifecycles(events)).toEqual(['running', 'running', 'completed']);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
    expect(await conversation(client, threadId)).toEqual(NYC_RUN);
    for (const run of [run1, run2]) {
      expect(await failureStatus(client.runs.get(threadId, run.run_id ?? ''))).toBe(404);
    }
    await thread.close();
  });
});
