import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { Service } from '../http/service';

/** An upstream that records every request it gets. */
function recordingApp(seen: string[], answer: (c: { req: { path: string } }) => Response) {
  const app = new Hono();
  app.all('*', (c) => {
    seen.push(`${c.req.method} ${c.req.path} key=${c.req.header('x-api-key') ?? ''}`);
    return answer(c);
  });
  return app;
}

async function listen(app: Hono): Promise<{ server: ServerType; url: string }> {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const embeddedSeen: string[] = [];
const okJson = () => Response.json({ ok: true });
const services: Service[] = [
  {
    name: 'usage',
    basePath: '/api/v1',
    app: recordingApp(embeddedSeen, okJson),
    close: async () => {},
  },
  {
    name: 'deployment',
    basePath: '/deployment',
    app: recordingApp(embeddedSeen, okJson),
    close: async () => {},
  },
];
const app = createApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), services });

describe('console proxy allow-list', () => {
  it.each([
    ['DELETE', '/_console/usage/workspaces/x'],
    ['POST', '/_console/usage/orgs/current/billing/granular-usage'],
    ['GET', '/_console/usage/no-such-endpoint'],
    ['DELETE', '/_console/deployment/threads/00000000-0000-4000-8000-000000000000'],
    ['POST', '/_console/deployment/assistants/search'],
  ])('%s %s answers JSON 404 and never reaches the upstream', async (method, path) => {
    embeddedSeen.length = 0;
    // From the console's own page: only the allow-list stands between it and the upstream.
    const response = await app.request(path, { method, headers: { origin: 'http://localhost' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ detail: 'Not Found' });
    expect(embeddedSeen).toEqual([]);
  });

  it('forwards what the SPA uses', async () => {
    embeddedSeen.length = 0;
    const response = await app.request(
      '/_console/usage/orgs/current/billing/granular-usage/export',
    );
    expect(response.status).toBe(200);
    expect(embeddedSeen).toEqual([
      'GET /orgs/current/billing/granular-usage/export key=lsv2_demo_admin',
    ]);
  });
});

describe('browser checks on /_console', () => {
  it('refuses a Host it does not answer to (DNS rebinding)', async () => {
    const response = await app.request('/_console/usage/workspaces', {
      headers: { host: 'attacker.example:5173' },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ detail: expect.stringContaining('ALLOWED_HOSTS') });
  });

  it('refuses a cross-site POST, even with a JSON body', async () => {
    const response = await app.request('/_console/deployment/threads', {
      method: 'POST',
      headers: { origin: 'https://attacker.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(403);
  });

  it.each(['/_console/deployment/threads', '/deployment/threads'])(
    'refuses a text/plain body on %s (a write a cross-site form can send)',
    async (path) => {
      embeddedSeen.length = 0;
      const response = await app.request(path, {
        method: 'POST',
        // As a browser sends it (an in-process request has no length header of its own).
        headers: { 'content-type': 'text/plain', 'content-length': '15' },
        body: '{"metadata":{}}',
      });
      expect(response.status).toBe(415);
      expect(embeddedSeen).toEqual([]);
    },
  );

  it("lets the server's own page through (same Origin as Host)", async () => {
    const response = await app.request('http://localhost:5173/_console/deployment/threads', {
      method: 'POST',
      headers: { origin: 'http://localhost:5173', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
  });
});

describe('security headers', () => {
  it.each(['/healthz', '/_console/config', '/no-such-page'])('are on %s', async (path) => {
    const response = await app.request(path);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
  });
});

describe('a remote upstream that redirects', () => {
  const elsewhereSeen: string[] = [];
  let upstream: { server: ServerType; url: string };
  let elsewhere: { server: ServerType; url: string };

  beforeAll(async () => {
    elsewhere = await listen(recordingApp(elsewhereSeen, okJson));
    upstream = await listen(
      recordingApp([], (c) => Response.redirect(`${elsewhere.url}${c.req.path}?stolen=1`, 302)),
    );
  });
  afterAll(() => {
    upstream.server.close();
    elsewhere.server.close();
  });

  it('is not followed: the key never reaches the other host, the browser gets a 502', async () => {
    const remoteApp = createApp({
      config: loadConfig({
        LANGSMITH_ENDPOINT: upstream.url,
        LANGSMITH_API_KEY: 'ls-secret',
        LOG_LEVEL: 'silent',
      }),
      services: [],
    });
    const response = await remoteApp.request('/_console/usage/workspaces');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      detail: expect.stringContaining('does not follow redirects'),
    });
    expect(elsewhereSeen).toEqual([]);
  });
});
