import { randomUUID } from 'node:crypto';
import { systemAssistantId } from '../use-cases/assistant-registry';
import { describe, expect, it } from 'vitest';
import {
  conversation,
  failureStatus,
  NYC,
  NYC_RUN,
  SF,
  SF_RUN,
  userInput,
  waitForMessages,
} from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 400 });

/** A thread that has run "weather in sf?" to the end (4 messages). */
async function finishedThread(metadata: Record<string, unknown> = {}) {
  const { client } = deployment;
  const thread = await client.threads.create({ metadata });
  await client.runs.wait(thread.thread_id, 'agent', { input: userInput(SF) });
  return thread.thread_id;
}

describe('create, get, update', () => {
  it('creates with metadata, then merges metadata on update', async () => {
    const { client } = deployment;
    const created = await client.threads.create({ metadata: { name: 'first' } });
    expect(created).toMatchObject({ metadata: { name: 'first' }, status: 'idle', values: {} });
    const updated = await client.threads.update(created.thread_id, { metadata: { done: true } });
    expect(updated.metadata).toEqual({ name: 'first', done: true });
    expect((await client.threads.get(created.thread_id)).metadata).toEqual(updated.metadata);
  });

  it('answers the official 404 wording for an update of an unknown thread', async () => {
    const update = deployment.client.threads.update(randomUUID(), { metadata: {} });
    await expect(update).rejects.toThrow('HTTP 404: {"detail":"Thread not found"}');
  });

  it('reports values and status after a run', async () => {
    const threadId = await finishedThread();
    const thread = await deployment.client.threads.get(threadId);
    expect(thread.status).toBe('idle');
    expect(thread.interrupts).toEqual({});
    expect(await conversation(deployment.client, threadId)).toEqual(SF_RUN);
    expect((thread.values as { messages: unknown[] }).messages).toHaveLength(4);
  });
});

describe('while a run is active', () => {
  it('is busy, refuses a state update (409 "Thread is busy"), then is interrupted once cancelled mid-run', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const run = await client.runs.create(thread_id, 'agent', { input: userInput(SF) });
    await waitForMessages(client, thread_id, 2);
    expect((await client.threads.get(thread_id)).status).toBe('busy');
    const update = client.threads.updateState(thread_id, {
      values: { messages: [{ type: 'ai', content: 'x' }] },
      asNode: 'agent',
    });
    await expect(update).rejects.toThrow('HTTP 409: {"detail":"Thread is busy"}');

    await client.runs.cancel(thread_id, run.run_id, true);
    const thread = await client.threads.get(thread_id);
    // Stopped mid-tool: the graph still has the tool step to run, as after an interrupt_before.
    expect(thread.status).toBe('interrupted');
    expect((await client.threads.getState(thread_id)).next).toEqual(['tools']);
  });
});

describe('search and count', () => {
  it('filters by metadata, ids, status and values, sorts and pages', async () => {
    const { client } = deployment;
    const suite = randomUUID();
    const a = await client.threads.create({ metadata: { suite, n: 1 } });
    const b = await client.threads.create({ metadata: { suite, n: 2, tag: 'x' } });
    const c = await finishedThread({ suite, n: 3 });

    const ids = (threads: { thread_id: string }[]) => threads.map((t) => t.thread_id);
    expect(ids(await client.threads.search({ metadata: { suite } }))).toEqual([
      c,
      b.thread_id,
      a.thread_id,
    ]);
    const ascending = await client.threads.search({
      metadata: { suite },
      sortBy: 'created_at',
      sortOrder: 'asc',
    });
    expect(ids(ascending)).toEqual([a.thread_id, b.thread_id, c]);
    const page = await client.threads.search({ metadata: { suite }, limit: 1, offset: 1 });
    expect(ids(page)).toEqual([b.thread_id]);
    expect(ids(await client.threads.search({ metadata: { suite, tag: 'x' } }))).toEqual([
      b.thread_id,
    ]);
    expect(ids(await client.threads.search({ ids: [a.thread_id, c] }))).toEqual([c, a.thread_id]);
    const withValues = await client.threads.search({
      metadata: { suite },
      values: { messages: [{ content: SF }] },
    });
    expect(ids(withValues)).toEqual([c]);
    expect(ids(await client.threads.search({ metadata: { suite }, status: 'busy' }))).toEqual([]);

    expect(await client.threads.count({ metadata: { suite } })).toBe(3);
    expect(await client.threads.count({ metadata: { suite }, status: 'idle' })).toBe(3);
    expect(await client.threads.count({ metadata: { suite, n: 2 } })).toBe(1);
  });

  it('returns only the selected fields', async () => {
    const { client } = deployment;
    const suite = randomUUID();
    const thread = await client.threads.create({ metadata: { suite } });
    const found = await client.threads.search({
      metadata: { suite },
      select: ['thread_id', 'status'],
    });
    expect(found).toEqual([{ thread_id: thread.thread_id, status: 'idle' }]);
  });

  it('sets the pagination headers the SDK reads', async () => {
    const suite = randomUUID();
    for (let i = 0; i < 3; i += 1) await deployment.client.threads.create({ metadata: { suite } });
    const response = await fetch(`${deployment.url}/threads/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { suite }, limit: 2 }),
    });
    expect(response.headers.get('x-pagination-next')).toBe('2');
    expect(response.headers.get('x-pagination-total')).toBe('3');
  });
});

describe('delete and copy', () => {
  it('stops the active and queued runs of a deleted thread, then forgets it', async () => {
    const { client } = deployment;
    const thread = await client.threads.create();
    const run1 = await client.runs.create(thread.thread_id, 'agent', { input: userInput(SF) });
    await client.runs.create(thread.thread_id, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'enqueue',
    });
    await waitForMessages(client, thread.thread_id, 1);

    await client.threads.delete(thread.thread_id);
    expect(await failureStatus(client.threads.get(thread.thread_id))).toBe(404);
    expect(await failureStatus(client.runs.get(thread.thread_id, run1.run_id))).toBe(404);
    expect(await failureStatus(client.threads.getState(thread.thread_id))).toBe(404);
    expect(await failureStatus(client.threads.delete(thread.thread_id))).toBe(404);
  });

  it('copies the state and history into an independent thread', async () => {
    const { client } = deployment;
    const source = await finishedThread({ origin: 'copy-test' });
    const copy = await client.threads.copy(source);
    expect(copy.thread_id).not.toBe(source);
    // The run wrote its graph and assistant into the thread's metadata, as on the platform.
    expect(copy.metadata).toEqual({
      origin: 'copy-test',
      graph_id: 'agent',
      assistant_id: systemAssistantId('agent'),
      thread_id: copy.thread_id,
    });
    expect(await conversation(client, copy.thread_id)).toEqual(SF_RUN);
    const sourceHistory = await client.threads.getHistory(source, { limit: 100 });
    const copyHistory = await client.threads.getHistory(copy.thread_id, { limit: 100 });
    expect(copyHistory.map((s) => s.checkpoint.checkpoint_id)).toEqual(
      sourceHistory.map((s) => s.checkpoint.checkpoint_id),
    );

    await client.runs.wait(copy.thread_id, 'agent', { input: userInput(NYC) });
    expect(await conversation(client, copy.thread_id)).toEqual([...SF_RUN, ...NYC_RUN]);
    expect(await conversation(client, source)).toEqual(SF_RUN);
  });

  it('answers 409 "Thread not found" for a copy of an unknown thread, as the official server', async () => {
    await expect(deployment.client.threads.copy(randomUUID())).rejects.toThrow(
      'HTTP 409: {"detail":"Thread not found"}',
    );
  });
});
