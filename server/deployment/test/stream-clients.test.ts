import { describe, expect, it } from 'vitest';
import { type Part, collect, messageCount, runIdOf, runStatus, until } from './stream-parts';
import { NYC, NYC_RUN, SF, SF_RUN, conversation, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 150 });

/** Reads a stream until `stop` says so; resolves with what was read and when it ended. */
async function readUntil(stream: AsyncIterable<unknown>, stop: (part: Part) => boolean) {
  const parts: Part[] = [];
  for await (const part of stream) {
    parts.push(part as Part);
    if (stop(part as Part)) break;
  }
  return parts;
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
    const { thread_id } = await client.threads.create();
    const controller = new AbortController();
    const before = await readUntil(
      client.runs.stream(thread_id, 'agent', {
        input: userInput(SF),
        streamResumable: true,
        onDisconnect: 'continue',
        signal: controller.signal,
      }),
      (part) => messageCount(part) === 2,
    );
    controller.abort();
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
    const { thread_id } = await client.threads.create();
    const controller = new AbortController();
    const parts = await readUntil(
      client.runs.stream(thread_id, 'agent', {
        input: userInput(SF),
        onDisconnect: 'cancel',
        signal: controller.signal,
      }),
      (part) => messageCount(part) === 1,
    );
    controller.abort();
    const runId = runIdOf(parts);
    await until(async () => (await runStatus(client, thread_id, runId)) === 'interrupted');
    // Stopped part-way: how far it got depends on how fast the server sees the socket close.
    const kept = await conversation(client, thread_id);
    expect(kept.length).toBeLessThan(SF_RUN.length);
    expect(kept).toEqual(SF_RUN.slice(0, kept.length));
  });

  it('on_disconnect "continue" lets the run finish', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const controller = new AbortController();
    const parts = await readUntil(
      client.runs.stream(thread_id, 'agent', {
        input: userInput(SF),
        onDisconnect: 'continue',
        signal: controller.signal,
      }),
      (part) => messageCount(part) === 1,
    );
    controller.abort();
    await client.runs.join(thread_id, runIdOf(parts));
    expect(await conversation(client, thread_id)).toEqual(SF_RUN);
  });
});

describe.concurrent('double-texting a streamed run', () => {
  it('rollback ends the first stream within a second; run 1 is gone; the thread holds run 2 only', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const first: Part[] = [];
    let firstEndedAt = 0;
    const firstDone = (async () => {
      for await (const part of client.runs.stream(thread_id, 'agent', { input: userInput(SF) })) {
        first.push(part as Part);
      }
      firstEndedAt = Date.now();
    })();
    await until(() => first.some((part) => messageCount(part) === 2));

    const sentAt = Date.now();
    const second = collect(
      client.runs.stream(thread_id, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'rollback',
      }),
    );
    await firstDone;
    expect(firstEndedAt - sentAt).toBeLessThan(1000);
    expect(first.at(-1)).toMatchObject({ event: 'error', data: { error: 'RunRolledBack' } });

    const secondParts = await second;
    expect(secondParts.map(messageCount).at(-1)).toBe(4);
    expect(await runStatus(client, thread_id, runIdOf(first))).toBe(404);
    expect(await conversation(client, thread_id)).toEqual(NYC_RUN);
  });

  it('interrupt ends the first stream without an error; run 2 streams on its partial state', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const first = client.runs.stream(thread_id, 'agent', { input: userInput(SF) });
    const firstParts = readUntil(first, () => false);
    await until(async () => (await conversation(client, thread_id)).length >= 2);
    const second = await collect(
      client.runs.stream(thread_id, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'interrupt',
      }),
    );
    expect(names(await firstParts)).not.toContain('error');
    expect(await runStatus(client, thread_id, runIdOf(await firstParts))).toBe('interrupted');
    // Run 1 kept what it wrote before the stop (how far it got depends on the machine's load).
    const messages = await conversation(client, thread_id);
    const kept = messages.slice(0, messages.length - NYC_RUN.length);
    expect(kept.length).toBeLessThan(SF_RUN.length);
    expect(kept).toEqual(SF_RUN.slice(0, kept.length));
    expect(messages.slice(kept.length)).toEqual(NYC_RUN);
    expect(second.map(messageCount).at(-1)).toBe(messages.length);
  });

  it('enqueue (the default): run 2 streams once run 1 has finished', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const first = collect(client.runs.stream(thread_id, 'agent', { input: userInput(SF) }));
    await until(async () => (await conversation(client, thread_id)).length >= 1);
    const second = await collect(client.runs.stream(thread_id, 'agent', { input: userInput(NYC) }));
    expect((await first).map(messageCount).at(-1)).toBe(4);
    expect(second.map(messageCount).at(-1)).toBe(8);
    expect(await conversation(client, thread_id)).toEqual([...SF_RUN, ...NYC_RUN]);
  });
});

const names = (parts: Part[]) => parts.map((part) => part.event);
