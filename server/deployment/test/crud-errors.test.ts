import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureStatus, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 0 });
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let threadId = '';
let assistantId = '';
beforeAll(async () => {
  const { client } = deployment;
  threadId = (await client.threads.create()).thread_id;
  await client.runs.wait(threadId, 'agent', { input: userInput('weather in sf?') });
  assistantId = (await client.assistants.create({ graphId: 'agent' })).assistant_id;
});

async function send(method: string, path: string, body?: string) {
  const response = await fetch(`${deployment.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

describe('unknown ids: the official statuses and wording', () => {
  it.each([
    ['GET', `/threads/${UNKNOWN}`, 404, `Thread with ID ${UNKNOWN} not found`],
    ['DELETE', `/threads/${UNKNOWN}`, 404, `Thread with ID ${UNKNOWN} not found`],
    ['PATCH', `/threads/${UNKNOWN}`, 404, 'Thread not found', '{"metadata":{}}'],
    ['POST', `/threads/${UNKNOWN}/copy`, 409, 'Thread not found'],
    ['GET', `/threads/${UNKNOWN}/state`, 404, `Thread with ID ${UNKNOWN} not found`],
    ['POST', `/threads/${UNKNOWN}/state`, 404, `Thread with ID ${UNKNOWN} not found`, '{}'],
    ['POST', `/threads/${UNKNOWN}/history`, 404, `Thread with ID ${UNKNOWN} not found`, '{}'],
    ['GET', `/assistants/${UNKNOWN}`, 404, 'Assistant not found'],
    ['PATCH', `/assistants/${UNKNOWN}`, 404, 'Assistant not found', '{}'],
    ['DELETE', `/assistants/${UNKNOWN}`, 404, 'Assistant not found'],
    ['POST', `/assistants/${UNKNOWN}/versions`, 404, `Assistant "${UNKNOWN}" not found.`, '{}'],
    ['POST', `/assistants/${UNKNOWN}/latest`, 404, 'Assistant not found', '{"version":1}'],
  ])('%s %s answers %i', async (method, path, status, detail, body?: string) => {
    expect(await send(method, path, body)).toEqual({ status, body: { detail } });
  });
});

describe('bad bodies and enums: 422 with a detail naming the field', () => {
  it.each([
    ['POST', '/threads/search', '{"status":"sleeping"}', 'status'],
    ['POST', '/threads/search', '{"sort_by":"name"}', 'sort_by'],
    ['POST', '/threads/search', '{"limit":0}', 'limit'],
    ['POST', '/threads/count', '{"metadata":[]}', 'metadata'],
    ['POST', '/threads', '{"if_exists":"overwrite"}', 'if_exists'],
    ['POST', '/assistants', '{}', 'graph_id'],
    ['POST', '/assistants', '{"graph_id":"agent","if_exists":"maybe"}', 'if_exists'],
    ['POST', '/assistants/search', '{"sort_order":"up"}', 'sort_order'],
    ['POST', '/store/items/search', '{}', 'namespace_prefix'],
    ['PUT', '/store/items', '{"namespace":["a"],"key":"k"}', 'value'],
    ['POST', '/store/namespaces', '{"max_depth":"deep"}', 'max_depth'],
  ])('%s %s %s', async (method, path, body, field) => {
    const answer = await send(method, path, body);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ detail: expect.stringContaining(field) });
  });

  it('reads a bad enum through the SDK as a 422 too', async () => {
    const { client } = deployment;
    const search = client.threads.search({ sortBy: 'name' as 'thread_id' });
    expect(await failureStatus(search)).toBe(422);
  });
});

/** Objects built from the fields these endpoints read, so that bodies get past the first checks. */
const FIELDS = [
  'metadata',
  'values',
  'status',
  'ids',
  'limit',
  'offset',
  'sort_by',
  'select',
  'as_node',
  'checkpoint',
  'checkpoint_id',
  'before',
  'namespace',
  'key',
  'value',
  'namespace_prefix',
  'filter',
  'prefix',
  'suffix',
  'max_depth',
  'graph_id',
  'config',
  'name',
  'version',
  'if_exists',
  'assistant_id',
  'schedule',
  'end_time',
  'enabled',
  'on_run_completed',
  'thread_id',
];
const fieldValue = fc.oneof(
  fc.jsonValue(),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  fc.integer({ min: -2, max: 2000 }),
  fc.constantFrom('agent', 'tools', 'idle', 'asc', 'created_at', 'raise', 'do_nothing', UNKNOWN),
  // Schedules that never fire during the test (a new year, or none at all).
  fc.constantFrom('0 0 1 1 *', '0 0 30 2 *', '61 * * * *', '2026-11-23T00:00:00Z'),
);
const knownFields = fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 5 });

describe('no 5xx, whatever JSON a client sends', () => {
  const endpoints = () => [
    ['POST', '/threads'],
    ['POST', '/threads/search'],
    ['POST', '/threads/count'],
    ['PATCH', `/threads/${threadId}`],
    ['POST', `/threads/${threadId}/history`],
    ['POST', `/threads/${threadId}/state/checkpoint`],
    ['POST', `/threads/${randomUUID()}/state`],
    ['POST', '/assistants'],
    ['POST', '/assistants/search'],
    ['POST', '/assistants/count'],
    ['PATCH', `/assistants/${assistantId}`],
    ['POST', `/assistants/${assistantId}/versions`],
    ['POST', `/assistants/${assistantId}/latest`],
    ['PUT', '/store/items'],
    ['DELETE', '/store/items'],
    ['POST', '/store/items/search'],
    ['POST', '/store/namespaces'],
    ['POST', `/threads/${threadId}/runs/crons`],
    ['POST', '/runs/crons'],
    ['POST', '/runs/crons/search'],
    ['POST', '/runs/crons/count'],
    ['PATCH', `/runs/crons/${randomUUID()}`],
  ];

  it('answers 2xx or 4xx with a JSON detail on every thread, assistant, store and cron endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: endpoints().length - 1 }),
        fc.oneof(fc.jsonValue(), knownFields),
        async (index, value) => {
          const [method = 'POST', path = '/'] = endpoints()[index] ?? [];
          const { status, body } = await send(method, path, JSON.stringify(value));
          expect(status).toBeLessThan(500);
          if (status >= 400) expect(body).toEqual({ detail: expect.any(String) });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers 400 for a state update as an unknown node, not a crash', async () => {
    const answer = await send(
      'POST',
      `/threads/${threadId}/state`,
      JSON.stringify({ values: { messages: [] }, as_node: 'nowhere' }),
    );
    expect(answer.status).toBe(400);
  });
});
