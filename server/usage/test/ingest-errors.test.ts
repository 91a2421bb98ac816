import { randomUUID } from 'node:crypto';
import { Client } from 'langsmith';
import { describe, expect, it } from 'vitest';
import { jsonTraces, sdkClient } from './ingest-helpers';
import { useTestServer } from './test-server';

const MAX_BODY = 64 * 1024;
const server = useTestServer({ USAGE_INGEST_MAX_BODY_BYTES: String(MAX_BODY) });
const WRITE = { 'x-api-key': 'lsv2_demo_admin' };

const project = () => `errors-${randomUUID().slice(0, 8)}`;
const rootRun = (id: string, session: string) => ({
  id,
  trace_id: id,
  dotted_order: `20261123T120000000000Z${id}`,
  name: 'root',
  run_type: 'chain',
  session_name: session,
});

function multipart(parts: [string, string][]): FormData {
  const form = new FormData();
  for (const [name, value] of parts) form.append(name, value);
  return form;
}

async function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...WRITE, ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('trace ingestion errors', () => {
  it('rejects a run with a malformed part (422 naming the part) and keeps the valid runs', async () => {
    const name = project();
    const [good, bad] = [randomUUID(), randomUUID()];
    const answer = await post(
      '/api/v1/runs/multipart',
      multipart([
        [`post.${good}`, JSON.stringify(rootRun(good, name))],
        [`post.${good}.inputs`, '{"question": "hi"}'],
        [`post.${bad}`, JSON.stringify(rootRun(bad, name))],
        [`post.${bad}.inputs`, '{"question": '],
      ]),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.accepted).toBe(1);
    expect(answer.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', `post.${bad}.inputs`], type: 'json_invalid' }),
    ]);
    expect(await jsonTraces(server.baseUrl, 'project_name', name)).toBe(1);
  });

  it('rejects a request with an unknown part name, accepting nothing', async () => {
    const name = project();
    const id = randomUUID();
    const answer = await post(
      '/api/v1/runs/multipart',
      multipart([
        [`post.${id}`, JSON.stringify(rootRun(id, name))],
        ['upsert.whatever', '{}'],
      ]),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'upsert.whatever'] }),
    ]);
    expect(await jsonTraces(server.baseUrl, 'project_name', name)).toBe(0);
  });

  it('reports each invalid run of a JSON batch by its index and bills the others', async () => {
    const name = project();
    const answer = await post(
      '/api/v1/runs/batch',
      JSON.stringify({
        post: [
          rootRun(randomUUID(), name),
          { name: 'no id' },
          { ...rootRun(randomUUID(), name), id: 'not-a-uuid' },
        ],
      }),
      { 'content-type': 'application/json' },
    );
    expect(answer.status).toBe(422);
    expect(answer.body.accepted).toBe(1);
    expect(
      (answer.body.detail as { loc: unknown[] }[]).map((problem) => problem.loc).sort(),
    ).toEqual([
      ['body', 'post', 1, 'id'],
      ['body', 'post', 2, 'id'],
    ]);
    expect(await jsonTraces(server.baseUrl, 'project_name', name)).toBe(1);
  });

  it('answers 413 with JSON for a body over the limit, through the SDK too', async () => {
    const name = project();
    const big = { ...rootRun(randomUUID(), name), inputs: { text: 'x'.repeat(MAX_BODY) } };
    const answer = await post('/api/v1/runs/batch', JSON.stringify({ post: [big] }), {
      'content-type': 'application/json',
    });
    expect(answer).toEqual({
      status: 413,
      body: { detail: `Request body larger than ${MAX_BODY} bytes.` },
    });
    await expect(
      sdkClient(server.baseUrl, 'lsv2_demo_admin').batchIngestRuns({ runCreates: [big] }),
    ).rejects.toThrow('413');
    expect(await jsonTraces(server.baseUrl, 'project_name', name)).toBe(0);
  });

  it('bills a trace created by POST /runs and ended by PATCH /runs/{id} once, children not', async () => {
    const name = project();
    const client = new Client({
      apiUrl: `${server.baseUrl}/api/v1`,
      apiKey: 'lsv2_demo_admin',
      autoBatchTracing: false,
    });
    const rootId = randomUUID();
    await client.createRun({
      id: rootId,
      name: 'root',
      run_type: 'chain',
      inputs: {},
      project_name: name,
    });
    await client.createRun({
      id: randomUUID(),
      name: 'child',
      run_type: 'llm',
      inputs: {},
      parent_run_id: rootId,
      project_name: name,
    });
    await client.updateRun(rootId, { end_time: Date.now(), outputs: { ok: true } });
    expect(await jsonTraces(server.baseUrl, 'project_name', name)).toBe(1);
  });

  it('bills only the new runs of a batch that repeats already billed ones', async () => {
    const name = project();
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const send = (ids: string[]) =>
      post('/api/v1/runs/batch', JSON.stringify({ post: ids.map((id) => rootRun(id, name)) }), {
        'content-type': 'application/json',
      });
    expect((await send([a, b])).body).toMatchObject({ accepted: 2, traces_billed: 2 });
    expect((await send([a, c, c])).body).toMatchObject({ accepted: 2, traces_billed: 1 });
    expect(await jsonTraces(server.baseUrl, 'project_name', name)).toBe(3);
  });

  it('serves the SDK default layout without /api/v1: /info and /runs/batch at the root', async () => {
    const info = await fetch(`${server.baseUrl}/info`);
    expect(await info.json()).toMatchObject({
      batch_ingest_config: { use_multipart_endpoint: true, size_limit_bytes: expect.any(Number) },
    });
    const name = project();
    const answer = await post(
      '/runs/batch',
      JSON.stringify({ post: [rootRun(randomUUID(), name)] }),
      {
        'content-type': 'application/json',
      },
    );
    expect(answer).toMatchObject({ status: 202, body: { accepted: 1, traces_billed: 1 } });
    expect(await jsonTraces(server.baseUrl, 'project_name', name)).toBe(1);
  });
});
