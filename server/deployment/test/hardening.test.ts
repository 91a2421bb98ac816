import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from './test-database';
import {
  removeDataDir,
  startTestDeployment,
  type TestDeployment,
  userInput,
} from './test-deployment';

let deployment: TestDeployment;
beforeAll(async () => {
  deployment = await startTestDeployment({ stepMs: 0 });
});
afterAll(async () => {
  await deployment.stop();
  await removeDataDir(deployment.dataDir);
});

const runBody = (content: string) =>
  JSON.stringify({ assistant_id: 'agent', input: userInput(content), if_not_exists: 'create' });

const rowsIn = (table: 'threads' | 'runs') => countRows(deployment.dataDir, table);

describe('request bodies over 1 MiB', () => {
  it('answer 413 JSON when the size is declared', async () => {
    const response = await fetch(`${deployment.url}/threads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { blob: 'x'.repeat(2 * 1024 * 1024) } }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: expect.stringContaining('larger than') });
  });

  it('answer 413 when the body streams without a length, and nothing is created', async () => {
    const before = await rowsIn('runs');
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0)
          controller.enqueue(new TextEncoder().encode('{"assistant_id":"agent","x":"'));
        if (sent++ < 40) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${deployment.url}/threads/${crypto.randomUUID()}/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await rowsIn('runs')).toBe(before);
  });
});

describe('ids in the path', () => {
  it.each(['%F0%9F%92%A5x', '%00', 'not-a-uuid'])(
    'a thread id %s answers 422 before any thread or run is created',
    async (id) => {
      const before = { threads: await rowsIn('threads'), runs: await rowsIn('runs') };
      const response = await fetch(`${deployment.url}/threads/${id}/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: runBody('weather in sf?'),
      });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        detail: [expect.objectContaining({ loc: ['path', 'threadId'], type: 'uuid_parsing' })],
      });
      expect({ threads: await rowsIn('threads'), runs: await rowsIn('runs') }).toEqual(before);
    },
  );

  it('a run id that is not a UUID answers 422 on get, join and cancel', async () => {
    const thread = await deployment.client.threads.create();
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/join'],
      ['POST', '/cancel'],
      ['DELETE', ''],
    ] as const) {
      const response = await fetch(
        `${deployment.url}/threads/${thread.thread_id}/runs/%00${suffix}`,
        {
          method,
        },
      );
      expect(response.status, `${method} ${suffix}`).toBe(422);
    }
  });

  it('keeps word routes under a thread working (runs/wait)', async () => {
    const response = await fetch(`${deployment.url}/threads/${crypto.randomUUID()}/runs/wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: runBody('weather in sf?'),
    });
    expect(response.status).toBe(200);
  });
});
