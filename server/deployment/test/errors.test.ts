import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failureStatus,
  removeDataDir,
  startTestDeployment,
  type TestDeployment,
  userInput,
} from './test-deployment';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const AGENT_ASSISTANT_ID = 'fe096781-5601-53d2-b2f6-0d3403f7e9ca';

let deployment: TestDeployment;
let threadId: string;
beforeAll(async () => {
  deployment = await startTestDeployment({ stepMs: 0 });
  threadId = (await deployment.client.threads.create()).thread_id;
});
afterAll(async () => {
  await deployment.stop();
  await removeDataDir(deployment.dataDir);
});

async function post(path: string, body: string) {
  const response = await fetch(`${deployment.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('404 for unknown thread, run and assistant', () => {
  it.each([
    ['threads.get', () => deployment.client.threads.get(UNKNOWN)],
    ['threads.getState', () => deployment.client.threads.getState(UNKNOWN)],
    ['runs.list', () => deployment.client.runs.list(UNKNOWN)],
    ['runs.get', () => deployment.client.runs.get(threadId, UNKNOWN)],
    ['runs.join', () => deployment.client.runs.join(threadId, UNKNOWN)],
    ['runs.cancel', () => deployment.client.runs.cancel(threadId, UNKNOWN)],
    ['runs.delete', () => deployment.client.runs.delete(threadId, UNKNOWN)],
    ['assistants.get', () => deployment.client.assistants.get('no-such-graph')],
    [
      'runs.create on unknown thread',
      () => deployment.client.runs.create(UNKNOWN, 'agent', { input: userInput('hi') }),
    ],
    [
      'runs.create with unknown assistant',
      () => deployment.client.runs.create(threadId, 'nope', { input: userInput('hi') }),
    ],
  ])('%s', async (_label, call) => {
    expect(await failureStatus(call())).toBe(404);
  });

  it('answers JSON {"detail": ...}', async () => {
    const response = await fetch(`${deployment.url}/threads/${UNKNOWN}`);
    expect(await response.json()).toEqual({ detail: `Thread with ID ${UNKNOWN} not found` });
  });
});

describe('422 for malformed bodies', () => {
  it.each([
    ['not JSON', '{"assistant_id": '],
    ['no assistant_id', JSON.stringify({ input: userInput('hi') })],
    ['no input', JSON.stringify({ assistant_id: 'agent' })],
    [
      'message without content',
      JSON.stringify({ assistant_id: 'agent', input: { messages: [{ role: 'user' }] } }),
    ],
    [
      'message without role or type',
      JSON.stringify({ assistant_id: 'agent', input: { messages: [{ content: 'x' }] } }),
    ],
    [
      'unknown strategy',
      JSON.stringify({ assistant_id: 'agent', input: userInput('x'), multitask_strategy: 'nope' }),
    ],
  ])('create run: %s', async (_label, body) => {
    const response = await post(`/threads/${threadId}/runs`, body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ detail: expect.any(String) });
  });

  it('list runs with a bad limit', async () => {
    const response = await fetch(`${deployment.url}/threads/${threadId}/runs?limit=lots`);
    expect(response.status).toBe(422);
  });

  it('never answers 5xx, whatever JSON a client sends to create a run', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const { status } = await post(`/threads/${threadId}/runs`, JSON.stringify(value));
        expect([200, 404, 409, 422]).toContain(status);
      }),
      { numRuns: 60 },
    );
  });
});

describe('assistants and threads', () => {
  it('resolves the graph name and the platform assistant id to the same assistant', async () => {
    const { client } = deployment;
    const byName = await client.assistants.get('agent');
    expect(byName).toMatchObject({ assistant_id: AGENT_ASSISTANT_ID, graph_id: 'agent' });
    expect(await client.assistants.get(AGENT_ASSISTANT_ID)).toEqual(byName);
    expect(await client.assistants.search({ graphId: 'agent' })).toEqual([byName]);
  });

  it('creates threads with an empty body and answers the thread fields the SDK reads', async () => {
    const created = await post('/threads', '');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      thread_id: expect.any(String),
      status: 'idle',
      values: {},
    });
  });

  it('refuses a duplicate thread_id with 409, or returns it with ifExists "do_nothing"', async () => {
    const { client } = deployment;
    expect(await failureStatus(client.threads.create({ threadId }))).toBe(409);
    expect((await client.threads.create({ threadId, ifExists: 'do_nothing' })).thread_id).toBe(
      threadId,
    );
  });

  it('creates one thread when racing requests use the same new thread_id', async () => {
    const racedId = '11111111-1111-4111-8111-111111111111';
    const attempts = Array.from({ length: 5 }, () =>
      failureStatus(deployment.client.threads.create({ threadId: racedId })),
    );
    expect((await Promise.all(attempts)).sort()).toEqual([409, 409, 409, 409, 'ok']);
  });
});
