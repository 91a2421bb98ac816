import type { StreamMode } from '@langchain/langgraph-sdk';
import { describe, expect, it } from 'vitest';
import { type Part, collect, messageCount, runIdOf, until } from './stream-parts';
import { SF, SF_RUN, conversation, failureStatus, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 10 });

async function streamSf(streamMode?: StreamMode | StreamMode[]): Promise<Part[]> {
  const { client } = deployment;
  const { thread_id } = await client.threads.create();
  const payload = { input: userInput(SF), ...(streamMode && { streamMode }) };
  return collect(client.runs.stream(thread_id, 'agent', payload));
}

const names = (parts: Part[]) => [...new Set(parts.map((part) => part.event))];
const ofEvent = (parts: Part[], event: string) => parts.filter((part) => part.event === event);

describe.concurrent('runs.stream on a thread', () => {
  it('sends metadata with the run id first, then the state after each step', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    let created: string | undefined;
    const parts = await collect(
      client.runs.stream(thread_id, 'agent', {
        input: userInput(SF),
        onRunCreated: ({ run_id }) => (created = run_id),
      }),
    );
    expect(runIdOf(parts)).toBe(created);
    expect(names(parts)).toEqual(['metadata', 'values']);
    expect(parts.map(messageCount).slice(1)).toEqual([1, 2, 3, 4]);
    expect(parts.map((part) => part.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(await conversation(client, thread_id)).toEqual(SF_RUN);
    expect((await client.runs.get(thread_id, runIdOf(parts))).status).toBe('success');
  });

  it('updates: one event per node, keyed by the node', async () => {
    const parts = await streamSf('updates');
    expect(ofEvent(parts, 'updates').map((part) => Object.keys(part.data as object))).toEqual([
      ['agent'],
      ['tools'],
      ['agent'],
    ]);
  });

  it('messages-tuple: [message, metadata] pairs as "messages" events', async () => {
    const parts = await streamSf('messages-tuple');
    const pairs = ofEvent(parts, 'messages').map((part) => part.data as [Part['data'], object]);
    const nodes = pairs.map(
      ([, metadata]) => (metadata as { langgraph_node: string }).langgraph_node,
    );
    const types = pairs.map(([message]) => (message as { type: string }).type);
    expect(names(parts)).toEqual(['metadata', 'messages']);
    expect(types).toEqual(['ai', 'tool', 'ai']);
    expect(nodes).toEqual(['agent', 'tools', 'agent']);
  });

  it('messages: each message once, as messages/complete', async () => {
    const parts = await streamSf('messages');
    const complete = ofEvent(parts, 'messages/complete').flatMap((part) => part.data as object[]);
    expect(names(parts)).toEqual(['metadata', 'messages/complete']);
    expect(complete.map((message) => (message as { type: string }).type)).toEqual([
      'human',
      'ai',
      'tool',
      'ai',
    ]);
  });

  it('events: the LangChain callback events of the run, the graph start first', async () => {
    const parts = await streamSf('events');
    const events = ofEvent(parts, 'events').map((part) => part.data as { event: string });
    expect(names(parts)).toEqual(['metadata', 'events']);
    expect(events[0]?.event).toBe('on_chain_start');
    expect(events.map((event) => event.event)).toContain('on_tool_end');
    expect(events.at(-1)?.event).toBe('on_chain_end');
  });

  it('custom: what the tool writes while it runs', async () => {
    const parts = await streamSf('custom');
    expect(ofEvent(parts, 'custom').map((part) => part.data)).toEqual([
      { tool: 'get_weather', city: 'sf', status: 'looking up' },
    ]);
  });

  it('tasks, checkpoints and debug', async () => {
    const parts = await streamSf(['tasks', 'checkpoints', 'debug']);
    const tasks = ofEvent(parts, 'tasks').map((part) => part.data as Record<string, unknown>);
    const checkpoints = ofEvent(parts, 'checkpoints').map(
      (part) => part.data as { next: string[] },
    );
    expect(names(parts)).toEqual(['metadata', 'checkpoints', 'debug', 'tasks']);
    expect(tasks.filter((task) => 'result' in task).map((task) => task.name)).toEqual([
      'agent',
      'tools',
      'agent',
    ]);
    expect(checkpoints.map((checkpoint) => checkpoint.next)).toEqual([
      ['__start__'],
      ['agent'],
      ['tools'],
      ['agent'],
      [],
    ]);
    expect(ofEvent(parts, 'debug').map((part) => (part.data as { type: string }).type)).toContain(
      'checkpoint',
    );
  });

  it('a list of modes sends each of them, in the order they happen', async () => {
    const parts = await streamSf(['values', 'updates', 'custom']);
    expect(names(parts).sort()).toEqual(['custom', 'metadata', 'updates', 'values']);
    const tool = parts.findIndex((part) => Object.keys(part.data as object).includes('tools'));
    expect(ofEvent(parts.slice(0, tool), 'custom')).toHaveLength(1);
  });

  it('stream_subgraphs: the same events for a graph without subgraphs', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const parts = await collect(
      client.runs.stream(thread_id, 'agent', { input: userInput(SF), streamSubgraphs: true }),
    );
    expect(names(parts)).toEqual(['metadata', 'values']);
  });

  it('a failed run ends its stream with an error event (recursion limit)', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const parts = await collect(
      client.runs.stream(thread_id, 'agent', {
        input: userInput(SF),
        config: { recursion_limit: 2 },
      }),
    );
    expect(parts.at(-1)?.event).toBe('error');
    expect(parts.at(-1)?.data).toMatchObject({ error: 'GraphRecursionError' });
    const run = await client.runs.get(thread_id, runIdOf(parts));
    expect(run.status).toBe('error');
  });

  it('refuses a bad stream mode (422) and an unknown thread (404) before streaming', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const bad = client.runs.stream(thread_id, 'agent', {
      input: userInput(SF),
      streamMode: 'nope' as StreamMode,
    });
    expect(await failureStatus(collect(bad))).toBe(422);
    const unknown = client.runs.stream(crypto.randomUUID(), 'agent', { input: userInput(SF) });
    expect(await failureStatus(collect(unknown))).toBe(404);
  });
});

describe.concurrent('stateless runs', () => {
  it('runs.stream without a thread streams the run on a temporary thread', async () => {
    const { client } = deployment;
    const parts = await collect(client.runs.stream(null, 'agent', { input: userInput(SF) }));
    expect(parts.map(messageCount).at(-1)).toBe(4);
  });

  it('runs.wait without a thread answers the final values', async () => {
    const { client } = deployment;
    const values = (await client.runs.wait(null, 'agent', { input: userInput(SF) })) as {
      messages: Array<{ type: string }>;
    };
    expect(values.messages.map((message) => message.type)).toEqual(['human', 'ai', 'tool', 'ai']);
  });

  it('runs.create without a thread runs in the background and deletes its thread after', async () => {
    const { client } = deployment;
    const run = await client.runs.create(null, 'agent', { input: userInput(SF) });
    expect(run.status).toBe('pending');
    // A 30 ms run may be over, and its thread gone, before a joinStream could connect: wait for
    // the deletion itself rather than racing it with a join.
    await until(async () => (await failureStatus(client.threads.get(run.thread_id))) === 404);
    expect(await failureStatus(client.threads.get(run.thread_id))).toBe(404);
  });
});
