import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { Service } from '../http/service';

/** What a browser sends with a change made from the console's own page. */
const SAME_ORIGIN = { origin: 'http://localhost' };

/** A stand-in upstream that echoes what it received, so the test sees what was forwarded. */
function echoApp() {
  const app = new Hono();
  app.all('*', async (c) =>
    c.json({
      method: c.req.method,
      path: c.req.path,
      query: c.req.queries(),
      key: c.req.header('x-api-key') ?? null,
      actor: c.req.header('x-console-actor') ?? null,
      body: c.req.method === 'GET' ? null : await c.req.text(),
    }),
  );
  return app;
}

function echoService(name: string, basePath: string): Service {
  return { name, basePath, app: echoApp(), close: async () => {} };
}

let remote: ServerType;
let remoteUrl: string;

beforeAll(async () => {
  remote = serve({ fetch: echoApp().fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => remote.once('listening', resolve));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});

afterAll(() => {
  remote.close();
});

describe('console proxy to the embedded services', () => {
  const app = createApp({
    config: loadConfig({ USAGE_CONSOLE_API_KEY: 'server-side-key', LOG_LEVEL: 'silent' }),
    services: [echoService('usage', '/api/v1'), echoService('deployment', '/deployment')],
  });

  it('adds the server key when the browser sends none, and keeps repeated query keys', async () => {
    const response = await app.request(
      '/_console/usage/orgs/current/billing/granular-usage?workspace_ids=a&workspace_ids=b',
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      method: 'GET',
      path: '/orgs/current/billing/granular-usage',
      query: { workspace_ids: ['a', 'b'] },
      key: 'server-side-key',
      actor: null,
      body: null,
    });
  });

  it('never forwards an X-Console-Actor header a browser sends (only the server sets one)', async () => {
    const response = await app.request('/_console/usage/workspaces', {
      headers: { 'x-console-actor': 'ceo@example.com' },
    });
    expect(await response.json()).toMatchObject({ actor: null });
  });

  it("passes the browser's own key through unchanged", async () => {
    const response = await app.request('/_console/usage/workspaces', {
      headers: { 'x-api-key': 'lsv2_demo_limited' },
    });
    expect(await response.json()).toMatchObject({ key: 'lsv2_demo_limited' });
  });

  it('forwards deployment requests with their JSON body', async () => {
    const response = await app.request('/_console/deployment/threads', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...SAME_ORIGIN },
      body: '{"metadata":{}}',
    });
    expect(await response.json()).toMatchObject({
      method: 'POST',
      path: '/threads',
      body: '{"metadata":{}}',
      key: null,
    });
  });
});

describe('console proxy to the embedded deployment in langsmith mode', () => {
  const app = createApp({
    config: loadConfig({
      LANGGRAPH_AUTH_TYPE: 'langsmith',
      USAGE_CONSOLE_API_KEY: 'console-key',
      LOG_LEVEL: 'silent',
    }),
    services: [echoService('deployment', '/deployment')],
  });

  it("sends the console's usage key when the browser sends none, and the browser's key else", async () => {
    const own = await app.request('/_console/deployment/threads', {
      method: 'POST',
      headers: SAME_ORIGIN,
    });
    expect(await own.json()).toMatchObject({ key: 'console-key' });
    const given = await app.request('/_console/deployment/threads', {
      method: 'POST',
      headers: { 'x-api-key': 'user-key', ...SAME_ORIGIN },
    });
    expect(await given.json()).toMatchObject({ key: 'user-key' });
  });
});

describe('console proxy to remote services', () => {
  it('sends LangSmith requests to {endpoint}/api/v1 with the configured key', async () => {
    const app = createApp({
      config: loadConfig({
        LANGSMITH_ENDPOINT: remoteUrl,
        LANGSMITH_API_KEY: 'ls-secret',
        LOG_LEVEL: 'silent',
      }),
      services: [echoService('usage', '/api/v1')],
    });
    const response = await app.request('/_console/usage/workspaces');
    expect(await response.json()).toMatchObject({ path: '/api/v1/workspaces', key: 'ls-secret' });

    const publicView = await (await app.request('/_console/config')).text();
    expect(publicView).not.toContain('ls-secret');
  });

  it('answers 502 with a readable detail when the remote cannot be reached', async () => {
    const app = createApp({
      config: loadConfig({ LANGGRAPH_DEPLOYMENT_URL: 'http://127.0.0.1:9/', LOG_LEVEL: 'silent' }),
      services: [],
    });
    const response = await app.request('/_console/deployment/threads', {
      method: 'POST',
      headers: SAME_ORIGIN,
    });
    expect(response.status).toBe(502);
    const body = (await response.json()) as { detail: string };
    expect(body.detail).toContain('Could not reach http://127.0.0.1:9/threads');
  });
});
