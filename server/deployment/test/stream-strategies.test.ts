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
import {
  NYC,
  NYC_RUN,
  SF,
  SF_RUN,
  conversation,
  failureStatus,
  userInput,
} from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

/** Multitask strategies against a run a client is streaming, through create, stream and wait. */
const deployment = useTestDeployment({ stepMs: 400 });

const names = (parts: Part[]) => parts.map((part) => part.event);

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

describe.concurrent('strategies through wait and cancel', () => {
  it('runs.wait with rollback answers run 2 only; the streamed run 1 ends at once', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const first = collect(client.runs.stream(thread_id, 'agent', { input: userInput(SF) }));
    await until(async () => (await conversation(client, thread_id)).length >= 1);
    const values = (await client.runs.wait(thread_id, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'rollback',
    })) as { messages: unknown[] };
    const firstParts = await first;
    expect(firstParts.at(-1)).toMatchObject({ event: 'error', data: { error: 'RunRolledBack' } });
    expect(values.messages).toHaveLength(4);
    expect(await conversation(client, thread_id)).toEqual(NYC_RUN);
  });

  it('runs.stream with reject answers 409 before streaming while run 1 goes on', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const first = collect(client.runs.stream(thread_id, 'agent', { input: userInput(SF) }));
    await until(async () => (await conversation(client, thread_id)).length >= 1);
    const refused = client.runs.stream(thread_id, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'reject',
    });
    expect(await failureStatus(collect(refused))).toBe(409);
    expect((await first).map(messageCount).at(-1)).toBe(4);
  });

  it('cancel with rollback and wait ends the run stream; the run then answers 404', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const parts: Part[] = [];
    const streamed = (async () => {
      for await (const part of client.runs.stream(thread_id, 'agent', { input: userInput(SF) })) {
        parts.push(part as Part);
      }
    })();
    await until(() => parts.length > 0);
    await client.runs.cancel(thread_id, runIdOf(parts), true, 'rollback');
    await streamed;
    expect(parts.at(-1)).toMatchObject({ event: 'error', data: { error: 'RunRolledBack' } });
    expect(await runStatus(client, thread_id, runIdOf(parts))).toBe(404);
    expect(await conversation(client, thread_id)).toEqual([]);
  });
});
