import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client } from '@langchain/langgraph-sdk';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDataDir, SF, startTestDeployment, userInput } from './test-deployment';
import type { TestDeployment } from './test-deployment';

const WORKSPACE_A = randomUUID();
const WORKSPACE_B = randomUUID();

/** The keys a stand-in LangSmith knows, and the workspaces `GET /api/v1/workspaces` lists for each. */
const KEYS: Record<string, { id: string; read_only: boolean }[]> = {
  'key-a': [{ id: WORKSPACE_A, read_only: false }],
  'key-b': [{ id: WORKSPACE_B, read_only: false }],
  'key-a-viewer': [{ id: WORKSPACE_A, read_only: true }],
};

let keyChecks = 0;
const langsmith = new Hono().get('/api/v1/workspaces', (c) => {
  keyChecks += 1;
  const workspaces = KEYS[c.req.header('x-api-key') ?? ''];
  return workspaces ? c.json(workspaces) : c.json({ detail: 'Invalid API key.' }, 401);
});
const langsmithServer = serve({ fetch: langsmith.fetch, hostname: '127.0.0.1', port: 0 });

let deployment: TestDeployment;
beforeAll(async () => {
  if (!langsmithServer.listening) {
    await new Promise<void>((resolve) => langsmithServer.once('listening', () => resolve()));
  }
  const { port } = langsmithServer.address() as AddressInfo;
  deployment = await startTestDeployment({
    stepMs: 0,
    env: {
      LANGGRAPH_AUTH_TYPE: 'langsmith',
      LANGSMITH_AUTH_ENDPOINT: `http://127.0.0.1:${port}`,
    },
  });
});
afterAll(async () => {
  await deployment.stop();
  await removeDataDir(deployment.dataDir);
  langsmithServer.close();
});

const clientFor = (apiKey: string) =>
  new Client({ apiUrl: deployment.url, apiKey, callerOptions: { maxRetries: 0 } });

describe('without a valid key', () => {
  it.each([
    ['no key', {}],
    ['an unknown key', { 'x-api-key': 'not-a-key' }],
  ])('answers 401 {detail} with WWW-Authenticate to %s', async (_name, headers) => {
    const response = await fetch(`${deployment.url}/threads/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('x-api-key');
    expect(await response.json()).toEqual({ detail: expect.any(String) });
  });

  it('still answers /ok and /info', async () => {
    expect((await fetch(`${deployment.url}/ok`)).status).toBe(200);
    expect((await fetch(`${deployment.url}/info`)).status).toBe(200);
  });
});

describe('keys of two workspaces', () => {
  it("keeps each workspace's threads to itself: 404 for the other's, not listed, not counted", async () => {
    const a = clientFor('key-a');
    const b = clientFor('key-b');
    const marker = randomUUID();
    const thread = await a.threads.create({ metadata: { marker } });
    expect(thread.metadata).toMatchObject({ marker, workspace_id: WORKSPACE_A });

    const { thread_id } = thread;
    const attempts = [
      () => b.threads.get(thread_id),
      () => b.threads.update(thread_id, { metadata: { taken: true } }),
      () => b.threads.delete(thread_id),
      () => b.threads.getState(thread_id),
      () => b.threads.getHistory(thread_id),
      () => b.runs.list(thread_id),
      () => b.runs.create(thread_id, 'agent', { input: userInput(SF) }),
      () => b.runs.wait(thread_id, 'agent', { input: userInput(SF) }),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/HTTP 404/);
    expect(await b.threads.search({ metadata: { marker } })).toEqual([]);
    expect(await b.threads.count({ metadata: { marker } })).toBe(0);
    expect((await a.threads.search({ metadata: { marker } })).map((t) => t.thread_id)).toEqual([
      thread_id,
    ]);
    // The thread is untouched by the other workspace's attempts.
    expect((await a.threads.get(thread_id)).metadata).not.toHaveProperty('taken');
  });

  it('runs on its own threads, and a stateless run keeps its thread in the workspace', async () => {
    const a = clientFor('key-a');
    const b = clientFor('key-b');
    const { thread_id } = await a.threads.create();
    await a.runs.wait(thread_id, 'agent', { input: userInput(SF) });
    const [run] = await a.runs.list(thread_id);
    expect(run?.metadata).toMatchObject({ workspace_id: WORKSPACE_A });

    const marker = randomUUID();
    // A stateless run whose thread is kept (the SDK's types leave `on_completion` out).
    const stateless = await fetch(`${deployment.url}/runs/wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'key-b' },
      body: JSON.stringify({
        assistant_id: 'agent',
        input: userInput(SF),
        on_completion: 'keep',
        metadata: { marker },
      }),
    });
    expect(stateless.status).toBe(200);
    const [kept] = await b.threads.search({ metadata: { graph_id: 'agent' }, limit: 100 });
    expect(kept?.metadata).toMatchObject({ workspace_id: WORKSPACE_B });
    const ofA = await a.threads.search({ limit: 1000 });
    expect(ofA.every((t) => t.metadata?.workspace_id === WORKSPACE_A)).toBe(true);
  });

  it('does not let a caller forge the workspace in metadata', async () => {
    const b = clientFor('key-b');
    const thread = await b.threads.create({ metadata: { workspace_id: WORKSPACE_A } });
    expect(thread.metadata).toMatchObject({ workspace_id: WORKSPACE_B });
    const moved = await b.threads.update(thread.thread_id, {
      metadata: { workspace_id: WORKSPACE_A },
    });
    expect(moved.metadata).toMatchObject({ workspace_id: WORKSPACE_B });
  });

  it('does not hand over another workspace thread by id (if_exists do_nothing is a 409)', async () => {
    const { thread_id } = await clientFor('key-a').threads.create();
    const taken = clientFor('key-b').threads.create({
      threadId: thread_id,
      ifExists: 'do_nothing',
    });
    await expect(taken).rejects.toThrow(/HTTP 409/);
  });
});

describe('assistants', () => {
  it("are the workspace's, beside the deployment's system assistants every key sees", async () => {
    const a = clientFor('key-a');
    const b = clientFor('key-b');
    const created = await a.assistants.create({ graphId: 'agent', name: 'of-a' });
    expect(created.metadata).toMatchObject({ workspace_id: WORKSPACE_A });
    await expect(b.assistants.get(created.assistant_id)).rejects.toThrow(/HTTP 404/);
    const names = (await b.assistants.search({ limit: 100 })).map((each) => each.name);
    expect(names).toContain('agent');
    expect(names).not.toContain('of-a');
    expect((await b.assistants.get('agent')).name).toBe('agent');
  });
});

describe('store items', () => {
  it("are the workspace's: another workspace's key cannot read, find, list or change them", async () => {
    const a = clientFor('key-a');
    const b = clientFor('key-b');
    const label = `notes-${randomUUID()}`;
    await a.store.putItem([label, 'today'], 'k', { text: 'from a' });
    await b.store.putItem([label, 'today'], 'k', { text: 'from b' });

    expect((await a.store.getItem([label, 'today'], 'k'))?.value).toEqual({ text: 'from a' });
    expect((await b.store.getItem([label, 'today'], 'k'))?.value).toEqual({ text: 'from b' });
    const { items } = await a.store.searchItems([label], { limit: 100 });
    expect(items.map((item) => [item.namespace, item.value])).toEqual([
      [[label, 'today'], { text: 'from a' }],
    ]);
    const listed = await b.store.listNamespaces({ prefix: [label], limit: 100 });
    expect(listed.namespaces).toEqual([[label, 'today']]);
    expect((await b.store.listNamespaces({ maxDepth: 1, limit: 1000 })).namespaces).toContainEqual([
      label,
    ]);

    await b.store.deleteItem([label, 'today'], 'k');
    expect(await b.store.getItem([label, 'today'], 'k')).toBeNull();
    expect((await a.store.getItem([label, 'today'], 'k'))?.value).toEqual({ text: 'from a' });
    // A read-only key of the workspace reads them, and cannot write.
    const viewer = clientFor('key-a-viewer');
    expect((await viewer.store.getItem([label, 'today'], 'k'))?.value).toEqual({ text: 'from a' });
    await expect(viewer.store.putItem([label], 'k', { text: 'x' })).rejects.toThrow(/HTTP 403/);
  });
});

describe('a read-only key', () => {
  it('reads its workspace but creates nothing (403)', async () => {
    const { thread_id } = await clientFor('key-a').threads.create();
    const viewer = clientFor('key-a-viewer');
    expect((await viewer.threads.get(thread_id)).thread_id).toBe(thread_id);
    await expect(viewer.runs.create(thread_id, 'agent', { input: userInput(SF) })).rejects.toThrow(
      /HTTP 403/,
    );
    await expect(viewer.threads.create()).rejects.toThrow(/HTTP 403/);
  });
});

it('checks a key once for a burst of requests (answers are cached briefly)', async () => {
  const a = clientFor('key-a');
  await a.threads.search();
  const before = keyChecks;
  await Promise.all(Array.from({ length: 20 }, () => a.threads.search()));
  expect(keyChecks).toBe(before);
});
