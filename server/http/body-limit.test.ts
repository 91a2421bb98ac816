import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitBody } from './body-limit';

const LIMIT = 64 * 1024;
let server: ServerType;
let baseUrl: string;

beforeAll(async () => {
  const app = new Hono();
  app.use('*', limitBody(LIMIT));
  app.post('/echo', async (c) => c.json({ bytes: (await c.req.text()).length }));
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}/echo`, {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
    signal: AbortSignal.timeout(10_000),
  } as RequestInit);

/** A body sent in chunks with no declared length (Transfer-Encoding: chunked). */
function chunked(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const chunk = new Uint8Array(Math.min(16 * 1024, total - sent)).fill(120);
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

describe('limitBody over HTTP', () => {
  it('answers a declared too-large body with a JSON 413 that the client reads whole', async () => {
    // Many at once over keep-alive connections: none may end with a reset socket.
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => post('x'.repeat(2 * 1024 * 1024))),
    );
    for (const response of answers) {
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        detail: `Request body larger than ${LIMIT} bytes.`,
      });
    }
  });

  it('answers a chunked too-large body with a 413 too', async () => {
    const response = await post(chunked(2 * 1024 * 1024));
    expect(response.status).toBe(413);
    expect(await response.json()).toHaveProperty('detail');
  });

  it('keeps serving bodies within the limit after refusing large ones', async () => {
    await post('x'.repeat(LIMIT + 1)).then((response) => response.text());
    const response = await post('y'.repeat(LIMIT));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ bytes: LIMIT });
    const streamed = await post(chunked(1000));
    expect(await streamed.json()).toEqual({ bytes: 1000 });
  });
});
