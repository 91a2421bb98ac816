import { describe, expect, it } from 'vitest';
import {
  type Part,
  collect,
  messageCount,
  readUntil,
  runIdOf,
  runStatus,
  until,
} from './stream-parts';
import { SF, SF_RUN, conversation, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 150 });

/**
 * Streams "weather in sf?" on a new thread until `messages` messages are in, then drops the
 * connection (as a closed tab does). Returns the thread and the parts read before the drop.
 */
async function streamThenDisconnect(
  messages: number,
  options: { onDisconnect: 'cancel' | 'continue'; streamResumable?: boolean },
) {
  const { client } = deployment;
  const { thread_id } = await client.threads.create();
  const controller = new AbortController();
  const parts = await readUntil(
    client.runs.stream(thread_id, 'agent', {
      input: userInput(SF),
      ...options,
      signal: controller.signal,
    }),
    (part) => messageCount(part) === messages,
  );
  controller.abort();
  return { thread_id, parts };
}

describe.concurrent('several clients and reconnects', () => {
  it('two clients stream one run: both see every event, with the same ids', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const stream = client.runs.stream(thread_id, 'agent', { input: userInput(SF) });
    const first = stream[Symbol.asyncIterator]();
    const metadata = (await first.next()).value as Part;
    const runId = (metadata.data as { run_id: string }).run_id;

    const [rest, joined] = await Promise.all([
      collect({ [Symbol.asyncIterator]: () => first }),
      collect(client.runs.joinStream(thread_id, runId)),
    ]);

    const firstParts = [metadata, ...rest];
    expect(firstParts.map(messageCount).at(-1)).toBe(4);
    expect(joined).toEqual(firstParts);
    expect(await conversation(client, thread_id)).toEqual(SF_RUN);
  });

  it('resumes a resumable stream after Last-Event-ID without losing or repeating events', async () => {
    const { client } = deployment;
    const { thread_id, parts: before } = await streamThenDisconnect(2, {
      streamResumable: true,
      onDisconnect: 'continue',
    });
    const lastEventId = before.at(-1)?.id;

    const after = await collect(
      client.runs.joinStream(thread_id, runIdOf(before), { lastEventId }),
    );

    const ids = [...before, ...after].map((part) => Number(part.id));
    expect(ids).toEqual(ids.map((_id, index) => index));
    expect(after.map(messageCount)).toEqual([3, 4]);
    expect((await client.runs.get(thread_id, runIdOf(before))).status).toBe('success');
  });

  it('on_disconnect "cancel" interrupts the run when the client goes away', async () => {
    const { client } = deployment;
    const { thread_id, parts } = await streamThenDisconnect(1, { onDisconnect: 'cancel' });
    const runId = runIdOf(parts);
    await until(async () => (await runStatus(client, thread_id, runId)) === 'interrupted');
    // Stopped part-way: how far it got depends on how fast the server sees the socket close.
    const kept = await conversation(client, thread_id);
    expect(kept.length).toBeLessThan(SF_RUN.length);
    expect(kept).toEqual(SF_RUN.slice(0, kept.length));
  });

  it('on_disconnect "continue" lets the run finish', async () => {
    const { client } = deployment;
    const { thread_id, parts } = await streamThenDisconnect(1, { onDisconnect: 'continue' });
    await client.runs.join(thread_id, runIdOf(parts));
    expect(await conversation(client, thread_id)).toEqual(SF_RUN);
  });
});
