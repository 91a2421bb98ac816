import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { threadStateSchema } from '@contracts/deployment';
import { conversation, failureStatus, SF, SF_RUN, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 0 });

async function finishedThread() {
  const { client } = deployment;
  const { thread_id } = await client.threads.create();
  await client.runs.wait(thread_id, 'agent', { input: userInput(SF) });
  return thread_id;
}

const updateAnswer = z.object({ checkpoint: z.object({ checkpoint_id: z.string() }) });

const messageCount = (state: unknown) => threadStateSchema.parse(state).values.messages.length;

describe('history', () => {
  it('is empty for a new thread', async () => {
    const { thread_id } = await deployment.client.threads.create();
    expect(await deployment.client.threads.getHistory(thread_id)).toEqual([]);
  });

  it('lists every checkpoint of a run, newest first, with limit and before', async () => {
    const { client } = deployment;
    const threadId = await finishedThread();
    // input, start (next: agent), agent, tools, agent: 5 checkpoints for one tool-calling run.
    const history = await client.threads.getHistory(threadId, { limit: 100 });
    expect(history.map(messageCount)).toEqual([4, 3, 2, 1, 0]);
    expect(history.map((state) => state.next)).toEqual([
      [],
      ['agent'],
      ['tools'],
      ['agent'],
      ['__start__'],
    ]);
    expect(history[0]?.checkpoint.checkpoint_id).toBe(
      (await client.threads.getState(threadId)).checkpoint.checkpoint_id,
    );

    const firstTwo = await client.threads.getHistory(threadId, { limit: 2 });
    expect(firstTwo.map(messageCount)).toEqual([4, 3]);
    const before = await client.threads.getHistory(threadId, {
      before: { configurable: { checkpoint_id: history[1]?.checkpoint.checkpoint_id } },
    });
    expect(before.map(messageCount)).toEqual([2, 1, 0]);
    const input = await client.threads.getHistory(threadId, { metadata: { source: 'input' } });
    expect(input.map(messageCount)).toEqual([0]);
  });
});

describe('state at a checkpoint', () => {
  it('reads an earlier checkpoint by id (GET) and by checkpoint object (POST)', async () => {
    const { client } = deployment;
    const threadId = await finishedThread();
    const history = await client.threads.getHistory(threadId);
    const midRunCheckpoint = history[2]?.checkpoint;
    const midRun = midRunCheckpoint?.checkpoint_id ?? '';
    const byId = await client.threads.getState(threadId, midRun);
    expect(byId.checkpoint.checkpoint_id).toBe(midRun);
    expect(messageCount(byId)).toBe(2);
    expect(byId.next).toEqual(['tools']);
    const byObject = await client.threads.getState(threadId, midRunCheckpoint);
    expect(byObject).toEqual(byId);
  });

  it('answers 404 for an unknown thread', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await failureStatus(deployment.client.threads.getState(unknown, unknown))).toBe(404);
    expect(await failureStatus(deployment.client.threads.getHistory(unknown))).toBe(404);
  });
});

describe('updateState', () => {
  it('writes values as a node: a new checkpoint (source update) holding them', async () => {
    const { client } = deployment;
    const threadId = await finishedThread();
    const updated = await client.threads.updateState(threadId, {
      values: { messages: [{ type: 'ai', content: 'One more thing.' }] },
      asNode: 'agent',
    });
    // The SDK types this as `{configurable}`; the official server answers `{checkpoint}`, as here.
    const { checkpoint } = updateAnswer.parse(updated);
    const state = await client.threads.getState(threadId);
    expect(state.checkpoint.checkpoint_id).toBe(checkpoint.checkpoint_id);
    expect(await conversation(client, threadId)).toEqual([...SF_RUN, 'ai: One more thing.']);
    expect(state.next).toEqual([]);
    expect(state.metadata).toMatchObject({ source: 'update' });
  });

  it('forks from an earlier checkpoint', async () => {
    const { client } = deployment;
    const threadId = await finishedThread();
    const history = await client.threads.getHistory(threadId);
    const afterQuestion = history[3]?.checkpoint.checkpoint_id ?? '';
    await client.threads.updateState(threadId, {
      values: { messages: [{ type: 'ai', content: 'Forked.' }] },
      asNode: 'agent',
      checkpointId: afterQuestion,
    });
    expect(await conversation(client, threadId)).toEqual([`human: ${SF}`, 'ai: Forked.']);
  });

  it('answers 400 for an unknown node', async () => {
    const threadId = await finishedThread();
    const update = deployment.client.threads.updateState(threadId, {
      values: { messages: [] },
      asNode: 'no_such_node',
    });
    expect(await failureStatus(update)).toBe(400);
  });
});

describe('create with supersteps', () => {
  it('writes one checkpoint per superstep', async () => {
    const { client } = deployment;
    const thread = await client.threads.create({
      supersteps: [
        {
          updates: [{ asNode: 'agent', values: { messages: [{ type: 'human', content: 'hi' }] } }],
        },
        {
          updates: [{ asNode: 'agent', values: { messages: [{ type: 'ai', content: 'hello' }] } }],
        },
      ],
    });
    expect(await conversation(client, thread.thread_id)).toEqual(['human: hi', 'ai: hello']);
    const history = await client.threads.getHistory(thread.thread_id);
    expect(history.map(messageCount)).toEqual([2, 1]);
  });

  it('creates no thread when a superstep names an unknown node (400)', async () => {
    const { client } = deployment;
    const threadId = '22222222-2222-4222-8222-222222222222';
    const create = client.threads.create({
      threadId,
      supersteps: [{ updates: [{ asNode: 'nowhere', values: { messages: [] } }] }],
    });
    expect(await failureStatus(create)).toBe(400);
    expect(await failureStatus(client.threads.get(threadId))).toBe(404);
  });
});
