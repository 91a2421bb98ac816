import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunnableLambda } from '@langchain/core/runnables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunTracing } from './run-tracing';

interface Stub {
  server: Server;
  url: string;
  seen: string[];
}

/** A plain HTTP server that records each request's method, path and key, and answers `reply`. */
async function stub(reply: (request: IncomingMessage) => { status: number; location?: string }) {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} key=${request.headers['x-api-key'] ?? ''}`);
    request.resume();
    const { status, location } = reply(request);
    response.writeHead(status, {
      'content-type': 'application/json',
      ...(location && { location }),
    });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, seen } satisfies Stub;
}

async function until(check: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

describe('deployment tracing to an endpoint that redirects', () => {
  let elsewhere: Stub;
  let endpoint: Stub;

  beforeAll(async () => {
    elsewhere = await stub(() => ({ status: 200 }));
    endpoint = await stub((request) => ({
      status: 302,
      location: `${elsewhere.url}${request.url ?? '/'}`,
    }));
  });
  afterAll(() => {
    endpoint.server.close();
    elsewhere.server.close();
  });

  it('sends the trace to the endpoint but never follows it to the other host', async () => {
    const tracing = createRunTracing(() => ({
      apiUrl: endpoint.url,
      apiKey: 'lsv2_secret',
      self: false,
    }));
    const echo = RunnableLambda.from((text: string) => text.toUpperCase());
    await echo.invoke('hi', { callbacks: tracing.callbacks('agent') });
    // The client asks the endpoint for GET /info before sending the batch, in the background.
    await until(() => endpoint.seen.length > 0);
    await tracing.flush();
    // Time for a followed redirect to land if the client made one (the fetch answers in ms).
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(endpoint.seen[0]).toBe('GET /info key=lsv2_secret');
    expect(elsewhere.seen).toEqual([]);
  });
});
