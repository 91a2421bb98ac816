import { Client as Client115 } from '@langchain/langgraph-sdk-115';
import { describe, expect, it } from 'vitest';
import {
  NYC,
  SF,
  conversation,
  failureStatus,
  userInput,
  waitForMessages,
} from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

// Slow enough that a run is still running when the cancel lands, even on a loaded machine.
const deployment = useTestDeployment({ stepMs: 400 });
const sdk = () => new Client115({ apiUrl: deployment.url, callerOptions: { maxRetries: 0 } });

/** A thread whose first run is running (it has written `progress` messages) with a second queued. */
async function busyThread(client: Client115, progress = 2) {
  const { thread_id } = await client.threads.create();
  const running = await client.runs.create(thread_id, 'agent', { input: userInput(SF) });
  await waitForMessages(deployment.client, thread_id, progress);
  const pending = await client.runs.create(thread_id, 'agent', {
    input: userInput(NYC),
    multitaskStrategy: 'enqueue',
  });
  return { threadId: thread_id, running: running.run_id, pending: pending.run_id };
}

const statusOf = async (client: Client115, threadId: string, runId: string) =>
  (await client.runs.get(threadId, runId)).status;

const post = (body: unknown, query = '') =>
  fetch(`${deployment.url}/runs/cancel${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

// Sequential: a cancel by status reaches every thread of the deployment.
describe('runs.cancelMany (POST /runs/cancel)', () => {
  it('by ids with interrupt: both runs end interrupted and the thread keeps its partial state', async () => {
    const client = sdk();
    const { threadId, running, pending } = await busyThread(client);
    await client.runs.cancelMany({ threadId, runIds: [running, pending] });
    expect(await statusOf(client, threadId, running)).toBe('interrupted');
    expect(await statusOf(client, threadId, pending)).toBe('interrupted');
    expect((await client.threads.get(threadId)).status).not.toBe('busy');
    expect((await conversation(deployment.client, threadId)).length).toBeGreaterThanOrEqual(2);
  });

  it('by ids with rollback: the runs are deleted and the thread is back to before them', async () => {
    const client = sdk();
    const { threadId, running, pending } = await busyThread(client);
    await client.runs.cancelMany({ threadId, runIds: [running, pending], action: 'rollback' });
    expect(await failureStatus(client.runs.get(threadId, running))).toBe(404);
    expect(await failureStatus(client.runs.get(threadId, pending))).toBe(404);
    expect(await client.runs.list(threadId)).toEqual([]);
    expect(await conversation(deployment.client, threadId)).toEqual([]);
  });

  it('by status pending: queued runs of every thread stop, running ones go on to finish', async () => {
    const client = sdk();
    const first = await busyThread(client);
    const second = await busyThread(client);
    await client.runs.cancelMany({ status: 'pending' });
    expect(await statusOf(client, first.threadId, first.pending)).toBe('interrupted');
    expect(await statusOf(client, second.threadId, second.pending)).toBe('interrupted');
    await client.runs.join(first.threadId, first.running);
    await client.runs.join(second.threadId, second.running);
    expect(await statusOf(client, first.threadId, first.running)).toBe('success');
    expect(await statusOf(client, second.threadId, second.running)).toBe('success');
  });

  it('by status running: the running run stops and the queued one starts after it', async () => {
    const client = sdk();
    const { threadId, running, pending } = await busyThread(client);
    await client.runs.cancelMany({ status: 'running' });
    expect(await statusOf(client, threadId, running)).toBe('interrupted');
    await client.runs.join(threadId, pending);
    expect(await statusOf(client, threadId, pending)).toBe('success');
  });

  it('by status all with rollback: every active run of every thread is deleted', async () => {
    const client = sdk();
    const threads = [await busyThread(client), await busyThread(client)];
    await client.runs.cancelMany({ status: 'all', action: 'rollback' });
    for (const { threadId, running, pending } of threads) {
      expect(await failureStatus(client.runs.get(threadId, running))).toBe(404);
      expect(await failureStatus(client.runs.get(threadId, pending))).toBe(404);
      expect(await conversation(deployment.client, threadId)).toEqual([]);
    }
  });

  it('answers 404 for ids that name no run, and leaves finished runs as they ended', async () => {
    const client = sdk();
    const { thread_id } = await client.threads.create();
    const unknown = '1ef4a4c8-0000-4000-8000-000000000000';
    const missing = client.runs.cancelMany({ threadId: thread_id, runIds: [unknown] });
    expect(await failureStatus(missing)).toBe(404);
    await client.runs.wait(thread_id, 'agent', { input: userInput(SF) });
    const [finished] = await client.runs.list(thread_id);
    await client.runs.cancelMany({ threadId: thread_id, runIds: [finished?.run_id ?? unknown] });
    expect(await statusOf(client, thread_id, finished?.run_id ?? unknown)).toBe('success');
  });

  it.each([
    ['a status with ids', { status: 'all', thread_id: '1ef4a4c8-0000-4000-8000-000000000000' }, ''],
    ['nothing to select', {}, ''],
    ['ids without a thread', { run_ids: ['1ef4a4c8-0000-4000-8000-000000000000'] }, ''],
    ['an unknown status', { status: 'done' }, ''],
    ['an unknown action', { status: 'all' }, '?action=delete'],
  ])('refuses %s with 422', async (_case, body, query) => {
    const response = await post(body, query);
    expect(response.status).toBe(422);
    expect(await response.json()).toHaveProperty('detail');
  });
});
