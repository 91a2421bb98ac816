import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '@server/deployment/wire/json-limits';
import { countRows } from './test-database';
import { SF, SF_RUN, conversation, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 0 });
let threadId = '';
let assistantId = '';
beforeAll(async () => {
  threadId = (await deployment.client.threads.create()).thread_id;
  assistantId = (await deployment.client.assistants.create({ graphId: 'agent' })).assistant_id;
});

async function send(method: string, path: string, body: string) {
  const response = await fetch(`${deployment.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Endpoints whose bodies are walked (filters) or stored, each with `v` placed where it matters. */
const endpoints: [string, () => string, (v: string) => string][] = [
  ['POST', () => '/threads', (v) => `{"metadata":{"x":${v}}}`],
  ['POST', () => '/threads/search', (v) => `{"metadata":{"x":${v}}}`],
  ['POST', () => '/threads/count', (v) => `{"metadata":{"x":${v}}}`],
  ['PATCH', () => `/threads/${threadId}`, (v) => `{"metadata":{"x":${v}}}`],
  ['POST', () => `/threads/${threadId}/state`, (v) => `{"values":{"x":${v}}}`],
  ['POST', () => `/threads/${threadId}/history`, (v) => `{"metadata":{"x":${v}}}`],
  ['POST', () => '/assistants', (v) => `{"graph_id":"agent","metadata":{"x":${v}}}`],
  ['POST', () => '/assistants/search', (v) => `{"metadata":{"x":${v}}}`],
  ['POST', () => '/assistants/count', (v) => `{"metadata":{"x":${v}}}`],
  ['PATCH', () => `/assistants/${assistantId}`, (v) => `{"metadata":{"x":${v}}}`],
  ['POST', () => `/assistants/${assistantId}/versions`, (v) => `{"metadata":{"x":${v}}}`],
  [
    'POST',
    () => `/threads/${threadId}/runs`,
    (v) => `{"assistant_id":"agent","input":{"messages":[]},"metadata":{"x":${v}}}`,
  ],
  ['POST', () => '/runs/wait', (v) => `{"assistant_id":"agent","input":{"x":${v}}}`],
  [
    'POST',
    () => '/runs/crons',
    (v) => `{"assistant_id":"agent","schedule":"0 0 1 1 *","metadata":{"x":${v}}}`,
  ],
  ['PUT', () => '/store/items', (v) => `{"namespace":["a"],"key":"k","value":{"x":${v}}}`],
  ['POST', () => '/store/items/search', (v) => `{"namespace_prefix":["a"],"filter":{"x":${v}}}`],
];

describe(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`, () => {
  it.each(
    endpoints.flatMap(([method, path, body]) => [
      [method, path, 'arrays', body(arrays(3000))] as const,
      [method, path, 'objects', body(objects(3000))] as const,
    ]),
  )('%s %s, 3,000 levels of %s: 422 naming the limit', async (method, path, _kind, body) => {
    expect(await send(method, path(), body)).toEqual({
      status: 422,
      body: { detail: `body: nested deeper than ${MAX_JSON_DEPTH} levels` },
    });
  });

  it('a body at the limit is still served', async () => {
    const value = arrays(MAX_JSON_DEPTH - 2);
    const created = await send('POST', '/threads', `{"metadata":{"x":${value}}}`);
    expect(created.status).toBe(200);
    const found = await send('POST', '/threads/search', `{"metadata":{"x":${value}}}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual([expect.objectContaining({ metadata: { x: JSON.parse(value) } })]);
  });
});

describe('strings Postgres cannot store', () => {
  const nul = '"a\\u0000b"';
  const lone = '"\\ud800"';
  it.each(
    endpoints
      .filter(([, path]) => !/search|count|history/.test(path()))
      .flatMap(([method, path, body]) => [
        [method, path, 'NUL', body(nul), 'holds a NUL character (\\u0000)'] as const,
        [method, path, 'lone surrogate', body(lone), 'holds a lone UTF-16 surrogate'] as const,
      ]),
  )('%s %s with a %s: 422 at the door', async (method, path, _kind, body, reason) => {
    const answer = await send(method, path(), body);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ detail: expect.stringContaining(reason) });
  });

  it('in a key too, and nothing is created', async () => {
    const before = await countRows(deployment.dataDir, 'threads');
    const answer = await send('POST', '/threads', '{"metadata":{"k\\u0000":1}}');
    expect(answer).toEqual({
      status: 422,
      body: { detail: 'body.metadata.k\u0000 (key): holds a NUL character (\\u0000)' },
    });
    expect(await countRows(deployment.dataDir, 'threads')).toBe(before);
  });

  it('the thread they were aimed at still runs', async () => {
    const { client } = deployment;
    await client.runs.wait(threadId, 'agent', { input: userInput(SF) });
    expect(await conversation(client, threadId)).toEqual(SF_RUN);
    expect((await client.threads.get(threadId)).metadata).not.toHaveProperty('x');
  });

  it('plain non-ASCII text (accents, emoji pairs) is kept as sent', async () => {
    const created = await send('POST', '/threads', '{"metadata":{"x":"é 😀 \\ud83d\\ude00"}}');
    expect(created).toEqual({
      status: 200,
      body: expect.objectContaining({ metadata: { x: 'é 😀 😀' } }),
    });
  });
});

describe('ids and query values Postgres cannot store', () => {
  it.each([
    ['GET', '/assistants/%00'],
    ['GET', '/assistants/a%00b/graph'],
    ['PATCH', '/assistants/%00'],
    ['DELETE', '/assistants/%00'],
    ['POST', '/assistants/%00/versions'],
    ['GET', '/store/items?namespace=a&key=%00'],
    ['GET', '/assistants/agent?x%00=1'],
  ])('%s %s: 422 naming the part of the URL', async (method, path) => {
    const response = await fetch(`${deployment.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: expect.stringMatching(/^(path|query): holds a NUL character/),
    });
  });

  it('an ordinary graph id in the path still resolves', async () => {
    const response = await fetch(`${deployment.url}/assistants/agent`);
    expect(response.status).toBe(200);
  });
});
