import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDataDir, sleep, startTestDeployment, type TestDeployment } from './test-deployment';

/**
 * Sweeps every 0.3 s; a thread created without `ttl` lives 1.2 s after its last update, then
 * keeps only its latest checkpoint (`keep_latest`).
 */
const TTL_CONFIG = path.join(import.meta.dirname, 'fixtures/graphs/ttl.json');
const SWEPT_WITHIN = { timeout: 8_000, interval: 100 };

describe('threads that expire, and POST /threads/prune', () => {
  let deployment: TestDeployment;
  beforeAll(async () => {
    deployment = await startTestDeployment({ stepMs: 0, langgraphConfig: TTL_CONFIG });
  });
  afterAll(async () => {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  });

  const echo = (threadId: string, text: string) =>
    deployment.client.runs.wait(threadId, 'echo', { input: { text } });
  const historyLength = async (threadId: string) =>
    (await deployment.client.threads.getHistory(threadId, { limit: 100 })).length;
  const statusOf = async (threadId: string) =>
    (await fetch(`${deployment.url}/threads/${threadId}`)).status;
  const prune = async (body: unknown) => {
    const response = await fetch(`${deployment.url}/threads/prune`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('deletes a thread created with a ttl once it has passed, and keeps a longer-lived one', async () => {
    const { client } = deployment;
    const short = await client.threads.create({ ttl: 0.01 });
    const long = await client.threads.create({ ttl: 60 });
    await echo(long.thread_id, 'a');
    await expect.poll(() => statusOf(short.thread_id), SWEPT_WITHIN).toBe(404);
    expect(await statusOf(long.thread_id)).toBe(200);
    expect(await historyLength(long.thread_id)).toBeGreaterThan(1);
  });

  it('a ttl set by an update applies from then on', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create({ ttl: 60 });
    await client.threads.update(thread_id, { ttl: 0.01 });
    await expect.poll(() => statusOf(thread_id), SWEPT_WITHIN).toBe(404);
  });

  it('under the default keep_latest ttl, an expired thread keeps its latest state and goes on from it', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    // A slow machine may prune between the two runs too: the second starts from the kept state.
    await echo(thread_id, 'a');
    await echo(thread_id, 'b');
    await expect.poll(() => historyLength(thread_id), SWEPT_WITHIN).toBe(1);
    expect((await client.threads.getState(thread_id)).values).toEqual({ text: 'b', echoed: 'b!' });
    await echo(thread_id, 'c');
    expect((await client.threads.getState(thread_id)).values).toEqual({ text: 'c', echoed: 'c!' });
    expect(await statusOf(thread_id)).toBe(200);
  });

  it('prunes with keep_latest, then deletes, counting the threads it pruned', async () => {
    const { client } = deployment;
    const first = await client.threads.create({ ttl: 60 });
    const second = await client.threads.create({ ttl: 60 });
    for (const { thread_id } of [first, second]) {
      await echo(thread_id, 'x');
      await echo(thread_id, 'y');
    }
    const ids = [first.thread_id, second.thread_id];
    expect(await prune({ thread_ids: [...ids, randomUUID()], strategy: 'keep_latest' })).toEqual({
      status: 200,
      body: { pruned_count: 2 },
    });
    for (const threadId of ids) {
      expect(await historyLength(threadId)).toBe(1);
      expect((await client.threads.getState(threadId)).values).toEqual({ text: 'y', echoed: 'y!' });
    }
    // `delete` is the default strategy.
    expect(await prune({ thread_ids: [first.thread_id] })).toEqual({
      status: 200,
      body: { pruned_count: 1 },
    });
    expect(await statusOf(first.thread_id)).toBe(404);
    expect(await statusOf(second.thread_id)).toBe(200);
    expect((await prune({ thread_ids: ids, strategy: 'sometimes' })).status).toBe(422);
  });

  it('store items expire after their ttl, a read restarting it unless it says not to', async () => {
    const { store } = deployment.client;
    const namespace = ['ttl', randomUUID()];
    const key = (name: string) => async () =>
      (await store.getItem(namespace, name, { refreshTtl: false }))?.key ?? null;
    await store.putItem(namespace, 'short', { n: 1 }, { ttl: 0.06 });
    await store.putItem(namespace, 'defaulted', { n: 2 });
    await store.putItem(namespace, 'forever', { n: 3 }, { ttl: null });
    await sleep(1_800);
    // A read that refreshes (langgraph.json's refresh_on_read) gives it 3.6 s from now.
    expect((await store.getItem(namespace, 'short'))?.value).toEqual({ n: 1 });
    await sleep(2_200);
    expect(await key('short')()).toBe('short');
    await expect.poll(key('short'), SWEPT_WITHIN).toBeNull();
    const { items } = await store.searchItems(namespace);
    expect(items.map((item) => item.key).sort()).toEqual(['defaulted', 'forever']);
  });
});
