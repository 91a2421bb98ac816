import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { browserGuard } from '@server/http/browser-guard';
import { type UpgradeEnv, serveWebSocketUpgrades } from './websocket-upgrade';

/** An app like `npm start`'s: the browser guard on every path, one route that takes sockets. */
function echoApp() {
  const app = new Hono();
  app.use('*', browserGuard());
  app.get('/echo', (c) => {
    const { upgrade } = (c.env ?? {}) as UpgradeEnv;
    upgrade?.accept((socket) =>
      socket.on('message', (data) => socket.send(`echo ${String(data)}`)),
    );
    return c.body(null, 200);
  });
  app.notFound((c) => c.json({ detail: 'Not Found' }, 404));
  return app;
}

describe('WebSocket upgrades go through the app', () => {
  let url = '';
  let close = () => Promise.resolve();

  beforeAll(async () => {
    const app = echoApp();
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
    serveWebSocketUpgrades(server, (request, env) => app.fetch(request, env));
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  /** The HTTP status and body a refused upgrade gets, or `open` when the socket opened. */
  function attempt(path: string, headers: Record<string, string> = {}) {
    const socket = new WebSocket(`${url}${path}`, { headers });
    return new Promise<{ status: number; body: string } | 'open'>((resolve) => {
      socket.on('open', () => {
        socket.close();
        resolve('open');
      });
      socket.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
    });
  }

  it('a route that accepts opens the socket, which then speaks', async () => {
    const socket = new WebSocket(`${url}/echo`);
    const answer = await new Promise<string>((resolve) => {
      socket.on('open', () => socket.send('hi'));
      socket.on('message', (data) => resolve(String(data)));
    });
    socket.close();
    expect(answer).toBe('echo hi');
  });

  it.each([
    [
      'another site',
      '/echo',
      { origin: 'https://evil.example' },
      403,
      'Cross-origin request from https://evil.example refused.',
    ],
    ['a path no route takes', '/nowhere', {}, 404, 'Not Found'],
  ])('%s gets the app answer and no socket', async (_name, path, headers, status, detail) => {
    expect(await attempt(path, headers)).toEqual({ status, body: JSON.stringify({ detail }) });
  });
});
