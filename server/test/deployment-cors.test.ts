import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { createDeploymentService } from '../deployment/deployment-service';
import type { Service } from '../http/service';

const STUDIO = 'https://smith.langchain.com';
const EVIL = 'https://evil.example';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over real HTTP with exactly these headers (a browser's Host and Origin included). */
function send(
  baseUrl: string,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: string,
) {
  return new Promise<Answer>((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}${pathname}`,
      {
        method,
        headers: {
          ...headers,
          ...(body !== undefined && {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The app as main.ts composes it, with the embedded deployment, over HTTP. */
async function startServer(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'deployment-cors-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const deployment = await createDeploymentService(config);
  const services: Service[] = [deployment];
  const server: ServerType = serve({
    fetch: createApp({ config, services }).fetch,
    hostname: '127.0.0.1',
    port: 0,
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deployment.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const preflight = (origin: string, method = 'POST') => ({
  origin,
  'access-control-request-method': method,
  'access-control-request-headers': 'content-type,x-api-key',
  'access-control-request-private-network': 'true',
});

describe('the embedded deployment with the default CORS policy', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let threadId: string;
  beforeAll(async () => {
    server = await startServer({ DEMO_MODEL_STEP_MS: '0' });
    const created = await send(server.url, 'POST', '/deployment/threads', {}, '{}');
    threadId = (JSON.parse(created.body) as { thread_id: string }).thread_id;
  });
  afterAll(() => server.close());

  it("answers LangGraph Studio's preflight, private-network grant included", async () => {
    const answer = await send(server.url, 'OPTIONS', '/deployment/threads/search', {
      ...preflight(STUDIO),
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(STUDIO);
    expect(answer.headers['access-control-allow-private-network']).toBe('true');
    expect(answer.headers['access-control-allow-methods']).toContain('POST');
    expect(answer.headers['access-control-allow-headers']).toBe('content-type,x-api-key');
    expect(answer.headers.vary).toContain('Origin');
  });

  it("gives Studio's request the data, with the headers the SDK reads exposed", async () => {
    const answer = await send(
      server.url,
      'POST',
      '/deployment/threads/search',
      { origin: STUDIO, 'sec-fetch-site': 'cross-site' },
      '{}',
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(STUDIO);
    expect(answer.headers['access-control-expose-headers']).toBe(
      'content-location,x-pagination-total',
    );
    expect(JSON.parse(answer.body)).toEqual([expect.objectContaining({ thread_id: threadId })]);
  });

  it("streams a run to Studio's page with the CORS headers on the event stream", async () => {
    const answer = await send(
      server.url,
      'POST',
      '/deployment/runs/stream',
      { origin: STUDIO },
      JSON.stringify({
        assistant_id: 'agent',
        input: { messages: [{ role: 'user', content: 'weather in sf?' }] },
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(answer.headers['access-control-allow-origin']).toBe(STUDIO);
    expect(answer.body).toContain('event: values');
  });

  it('refuses a page not allowed: preflight and request get 403 and no data', async () => {
    const pre = await send(server.url, 'OPTIONS', '/deployment/threads/search', preflight(EVIL));
    expect(pre.status).toBe(403);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-private-network']).toBeUndefined();

    const read = await send(server.url, 'GET', `/deployment/threads/${threadId}`, { origin: EVIL });
    expect(read.status).toBe(403);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(read.body)).toEqual({
      detail: `Cross-origin request from ${EVIL} refused; allow it with CORS_ALLOW_ORIGINS (default: LangGraph Studio only).`,
    });
    expect(read.body).not.toContain(threadId);
  });

  it('refuses a rebound name: Host evil.example with a matching Origin gets no data', async () => {
    const host = `evil.example:${server.port}`;
    const rebound: Record<string, string>[] = [{ host, origin: `http://${host}` }, { host }];
    for (const headers of rebound) {
      const answer = await send(server.url, 'GET', `/deployment/threads/${threadId}`, headers);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toEqual({ detail: expect.stringContaining('ALLOWED_HOSTS') });
    }
    const write = await send(
      server.url,
      'POST',
      '/deployment/threads',
      { host, origin: `http://${host}` },
      '{}',
    );
    expect(write.status).toBe(403);
  });

  it('still serves the clients that send no Origin (the SDK in Node, curl)', async () => {
    const answer = await send(server.url, 'GET', `/deployment/threads/${threadId}`, {});
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ALLOW_ORIGINS', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({
      CORS_ALLOW_ORIGINS: 'http://localhost:3000, https://chat.example',
    });
  });
  afterAll(() => server.close());

  it.each([
    ['http://localhost:3000', 200],
    ['https://chat.example', 200],
    [STUDIO, 403],
  ])('%s gets %i', async (origin, status) => {
    const answer = await send(server.url, 'POST', '/deployment/threads/search', { origin }, '{}');
    expect(answer.status).toBe(status);
    expect(answer.headers['access-control-allow-origin']).toBe(status === 200 ? origin : undefined);
  });

  it('* lets any page in, as the official server by default', async () => {
    const open = await startServer({ CORS_ALLOW_ORIGINS: '*' });
    try {
      const answer = await send(open.url, 'OPTIONS', '/deployment/threads', preflight(EVIL));
      expect(answer.status).toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await open.close();
    }
  });
});

describe('http.cors of langgraph.json', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({
      LANGGRAPH_CONFIG: path.join(
        import.meta.dirname,
        '../deployment/test/fixtures/graphs/cors.json',
      ),
      // The file wins over the environment, as on the official server.
      CORS_ALLOW_ORIGINS: EVIL,
    });
  });
  afterAll(() => server.close());

  it('allows the origins its regex matches, with its max_age and expose_headers', async () => {
    const origin = 'https://team.agent-chat.example';
    const answer = await send(server.url, 'OPTIONS', '/deployment/assistants/search', {
      ...preflight(origin),
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(origin);
    expect(answer.headers['access-control-max-age']).toBe('600');
    expect(answer.headers['access-control-expose-headers']).toBe(
      'x-request-id,content-location,x-pagination-total',
    );
  });

  it.each([EVIL, STUDIO])('refuses %s', async (origin) => {
    const answer = await send(
      server.url,
      'POST',
      '/deployment/assistants/search',
      { origin },
      '{}',
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({
      detail: expect.stringContaining('http.cors of langgraph.json'),
    });
  });
});
