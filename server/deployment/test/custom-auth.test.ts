import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from './fixtures/auth/jwt-auth.mjs';
import { removeDataDir, startTestDeployment, type TestDeployment } from './test-deployment';

const LANGGRAPH_JSON = path.resolve(import.meta.dirname, 'fixtures/auth/langgraph.json');
const FULL = ['me', 'read', 'write', 'assistants:write'];

let deployment: TestDeployment;
beforeAll(async () => {
  deployment = await startTestDeployment({ stepMs: 0, langgraphConfig: LANGGRAPH_JSON });
});
afterAll(async () => {
  await deployment.stop();
  await removeDataDir(deployment.dataDir);
});

const clientAs = (user: string, scopes = FULL) =>
  new Client({
    apiUrl: deployment.url,
    defaultHeaders: { Authorization: `Bearer ${tokenFor(user, scopes)}` },
    callerOptions: { maxRetries: 0 },
  });

const input = { asked: 'who?' };

describe('authentication', () => {
  it('answers 401 with the handler’s message and WWW-Authenticate without credentials', async () => {
    const response = await fetch(`${deployment.url}/threads/search`, { method: 'POST' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toEqual({ detail: 'Could not validate credentials' });
  });

  it('answers 401 to a token with a bad signature', async () => {
    const forged = `${tokenFor('johndoe', FULL).slice(0, -4)}AAAA`;
    const response = await fetch(`${deployment.url}/threads/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'Failed to verify JWT token' });
  });
});

describe('two users', () => {
  it("each sees only their own threads: the other's is 404 for every request naming it", async () => {
    const john = clientAs('johndoe');
    const alice = clientAs('alice');
    const thread = await john.threads.create({ metadata: { topic: 'private' } });
    expect(thread.metadata).toMatchObject({ owner: 'johndoe', topic: 'private' });
    const { thread_id } = thread;
    const run = await john.runs.create(thread_id, 'whoami', { input });
    await john.runs.join(thread_id, run.run_id);

    const attempts = [
      () => alice.threads.get(thread_id),
      () => alice.threads.update(thread_id, { metadata: { topic: 'taken' } }),
      () => alice.threads.getState(thread_id),
      () => alice.threads.getHistory(thread_id),
      () => alice.threads.updateState(thread_id, { values: { asked: 'x' } }),
      () => alice.runs.list(thread_id),
      () => alice.runs.get(thread_id, run.run_id),
      () => alice.runs.join(thread_id, run.run_id),
      () => alice.runs.create(thread_id, 'whoami', { input }),
      () => alice.runs.wait(thread_id, 'whoami', { input }),
      () => alice.runs.cancel(thread_id, run.run_id),
      () => alice.threads.delete(thread_id),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/HTTP 404/);
    const stream = alice.runs.stream(thread_id, 'whoami', { input });
    await expect(stream.next()).rejects.toThrow(/HTTP 404/);

    expect(await alice.threads.search({ metadata: { topic: 'private' } })).toEqual([]);
    expect(await alice.threads.count({ metadata: { topic: 'private' } })).toBe(0);
    const found = await john.threads.search({ metadata: { topic: 'private' } });
    expect(found.map((each) => each.thread_id)).toEqual([thread_id]);
    expect((await john.threads.get(thread_id)).metadata).toMatchObject({ topic: 'private' });
  });

  it('does not let a caller take over a thread by writing another owner', async () => {
    const alice = clientAs('alice');
    const thread = await alice.threads.create({ metadata: { owner: 'johndoe' } });
    expect(thread.metadata).toMatchObject({ owner: 'alice' });
  });
});

describe("another user's runs", () => {
  it('are 404 on every run-level route: get, join, join stream, delete, copy', async () => {
    const john = clientAs('johndoe');
    const alice = clientAs('alice');
    const { thread_id } = await john.threads.create();
    const run = await john.runs.create(thread_id, 'whoami', { input });
    await john.runs.join(thread_id, run.run_id);
    // Alice's own thread, naming John's run: the run is not on it.
    const own = await alice.threads.create();

    const streams = [
      alice.runs.joinStream(thread_id, run.run_id),
      alice.runs.joinStream(own.thread_id, run.run_id),
      alice.threads.joinStream(thread_id),
    ];
    for (const stream of streams) await expect(stream.next()).rejects.toThrow(/HTTP 404/);
    const attempts = [
      () => alice.runs.get(own.thread_id, run.run_id),
      () => alice.runs.join(own.thread_id, run.run_id),
      () => alice.runs.delete(thread_id, run.run_id),
      () => alice.runs.delete(own.thread_id, run.run_id),
      () => alice.threads.copy(thread_id),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/HTTP 404/);
    expect((await john.runs.get(thread_id, run.run_id)).status).toBe('success');
  });

  it('are not cancelled in bulk by another user (POST /runs/cancel)', async () => {
    const john = clientAs('johndoe');
    const { thread_id } = await john.threads.create();
    const run = await john.runs.create(thread_id, 'whoami', { input });
    await john.runs.join(thread_id, run.run_id);
    const cancel = (user: string) =>
      fetch(`${deployment.url}/runs/cancel`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${tokenFor(user, FULL)}`,
        },
        body: JSON.stringify({ thread_id, run_ids: [run.run_id] }),
      });
    expect((await cancel('alice')).status).toBe(404);
    expect((await cancel('johndoe')).status).toBe(204);
  });

  it('of a stateless run: its stream is not joined by id by another user', async () => {
    const john = clientAs('johndoe');
    const alice = clientAs('alice');
    const run = await john.runs.create(null, 'whoami', { input });
    await expect(alice.runs.joinStream(null, run.run_id).next()).rejects.toThrow(/HTTP 404/);
  });
});

describe('assistants', () => {
  it("are their creator's: another user cannot see, read or change them (404)", async () => {
    const john = clientAs('johndoe');
    const alice = clientAs('alice');
    const created = await john.assistants.create({ graphId: 'whoami', name: 'johns' });
    expect(created.metadata).toMatchObject({ owner: 'johndoe' });
    const { assistant_id } = created;
    const attempts = [
      () => alice.assistants.get(assistant_id),
      () => alice.assistants.update(assistant_id, { name: 'taken' }),
      () => alice.assistants.getGraph(assistant_id),
      () => alice.assistants.delete(assistant_id),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/HTTP 404/);
    const names = async (client: Client) =>
      (await client.assistants.search({ limit: 100 })).map((each) => each.name);
    expect(await names(alice)).not.toContain('johns');
    expect(await names(john)).toContain('johns');
    expect(await alice.assistants.count({ graphId: 'whoami' })).toBe(0);
  });
});

describe('crons', () => {
  it("are their creator's: unlisted, uncounted and 404 for another user", async () => {
    const john = clientAs('johndoe');
    const alice = clientAs('alice');
    const { thread_id } = await john.threads.create();
    const onThread = await john.crons.createForThread(thread_id, 'whoami', {
      schedule: '0 0 1 1 *',
      input,
    });
    const stateless = await john.crons.create('whoami', { schedule: '0 0 1 1 *', input });
    expect(onThread.metadata).toMatchObject({ owner: 'johndoe' });
    const ids = async (client: Client) =>
      (await client.crons.search({ limit: 100 })).map((cron) => cron.cron_id);
    expect(await ids(john)).toEqual(expect.arrayContaining([onThread.cron_id, stateless.cron_id]));
    const seenByAlice = await ids(alice);
    expect(seenByAlice).not.toContain(onThread.cron_id);
    expect(seenByAlice).not.toContain(stateless.cron_id);
    expect(await alice.crons.count({ threadId: thread_id })).toBe(0);
    await expect(alice.crons.delete(stateless.cron_id)).rejects.toThrow(/HTTP 404/);
    await expect(
      alice.crons.createForThread(thread_id, 'whoami', { schedule: '0 0 1 1 *', input }),
    ).rejects.toThrow(/HTTP 404/);
    expect(await ids(john)).toContain(stateless.cron_id);
  });
});

it("keeps a stateless cron's threads with their owner, and its runs act for that owner", async () => {
  const john = clientAs('johndoe');
  const marker = `cron-${Date.now()}`;
  const cron = await john.crons.create('whoami', {
    schedule: '* * * * * *',
    input,
    metadata: { marker },
    onRunCompleted: 'keep',
  });
  expect(cron.user_id).toBe('johndoe');
  expect(cron.payload).not.toHaveProperty('langgraph_auth_user');
  try {
    // The graph writes the run's `langgraph_auth_user` into the thread's values.
    await expect
      .poll(
        async () => {
          const [thread] = await john.threads.search({ metadata: { marker }, status: 'idle' });
          return thread?.values;
        },
        { timeout: 10_000 },
      )
      .toMatchObject({ user: 'johndoe/johndoe' });
    expect(await clientAs('alice').threads.search({ metadata: { marker } })).toEqual([]);
  } finally {
    await john.crons.delete(cron.cron_id);
  }
});

describe('store items', () => {
  it('are kept under namespaces holding the user: others cannot write, read, list or delete them', async () => {
    const john = clientAs('johndoe');
    const alice = clientAs('alice');
    await john.store.putItem(['johndoe', 'notes'], 'n1', { text: 'private' });
    await alice.store.putItem(['alice', 'notes'], 'n1', { text: 'hers' });
    await expect(alice.store.putItem(['johndoe', 'notes'], 'n2', { text: 'x' })).rejects.toThrow(
      /HTTP 403/,
    );
    // The suite's handler refuses a namespace without the caller in it.
    await expect(alice.store.getItem(['johndoe', 'notes'], 'n1')).rejects.toThrow(/HTTP 403/);
    expect((await john.store.getItem(['johndoe', 'notes'], 'n1'))?.value).toEqual({
      text: 'private',
    });
    const { items } = await alice.store.searchItems([], { limit: 100 });
    expect(items.map((item) => item.namespace)).toEqual([['alice', 'notes']]);
    const { namespaces } = await alice.store.listNamespaces();
    expect(namespaces).toEqual([['alice', 'notes']]);
    await expect(alice.store.deleteItem(['johndoe', 'notes'], 'n1')).rejects.toThrow(/HTTP 403/);
    expect(await john.store.getItem(['johndoe', 'notes'], 'n1')).not.toBeNull();
  });
});

describe('protocol v2', () => {
  const command = (token: string, threadId: string) =>
    fetch(`${deployment.url}/threads/${threadId}/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        id: 1,
        method: 'run.start',
        params: { assistant_id: 'whoami', input },
      }),
    });

  it("starts runs as the caller on its own thread, and answers 404 on another's", async () => {
    const john = clientAs('johndoe');
    const { thread_id } = await john.threads.create();
    const refused = await command(tokenFor('alice', FULL), thread_id);
    expect(refused.status).toBe(404);
    const started = await command(tokenFor('johndoe', FULL), thread_id);
    expect(started.status).toBe(200);
    const [run] = await john.runs.list(thread_id);
    expect(run?.metadata).toMatchObject({ owner: 'johndoe' });
    await john.runs.join(thread_id, run?.run_id ?? '');
    expect((await john.threads.getState(thread_id)).values).toMatchObject({
      user: 'johndoe/johndoe',
    });
  });
});

describe('runs', () => {
  it("carry the caller in the config (langgraph_auth_user), kept out of the thread's checkpoints", async () => {
    const john = clientAs('johndoe');
    const { thread_id } = await john.threads.create();
    const values = await john.runs.wait(thread_id, 'whoami', { input });
    expect(values).toMatchObject({ user: 'johndoe/johndoe' });
    const [run] = await john.runs.list(thread_id);
    expect(run?.metadata).toMatchObject({ owner: 'johndoe' });
    const history = await john.threads.getHistory(thread_id);
    expect(history.length).toBeGreaterThan(0);
    for (const state of history) {
      expect(state.metadata).not.toHaveProperty('langgraph_auth_user');
      expect(state.metadata).not.toHaveProperty('langgraph_auth_user_id');
    }
  });
});

describe('scopes', () => {
  it('refuse with 403 what the handlers do not allow', async () => {
    await expect(clientAs('johndoe', ['read']).threads.create()).rejects.toThrow(/HTTP 403/);
    await expect(clientAs('johndoe', []).threads.create()).rejects.toThrow(/HTTP 403/);
    await expect(
      clientAs('johndoe', ['read', 'me']).assistants.create({ graphId: 'whoami' }),
    ).rejects.toThrow(/HTTP 403/);
  });
});
