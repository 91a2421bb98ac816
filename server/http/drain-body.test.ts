import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitBody } from './body-limit';
import { drainUnreadBody } from './drain-body';

let server: ServerType;
let port: number;
// One keep-alive connection: every request below travels on the socket the one before used.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  const app = new Hono();
  app.use('*', drainUnreadBody());
  // Opens the body stream, as any middleware that checks a body's size does.
  app.use('*', limitBody(4 * 1024 * 1024));
  // Answers before reading the body, as the Origin and content-type checks do.
  app.post('/refuse', async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return c.json({ detail: 'Refused.' }, 403);
  });
  app.get('/ok', (c) => c.json({ ok: true }));
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  agent.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function send(method: string, path: string, body?: string) {
  return new Promise<{ status: number; text: string; socket: unknown }>((resolve, reject) => {
    const req = request({ agent, port, host: '127.0.0.1', method, path, timeout: 4_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, socket: req.socket }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer`)));
    req.on('error', reject);
    req.end(body);
  });
}

describe('drainUnreadBody', () => {
  it('keeps a keep-alive connection answering after a body the handler never read', async () => {
    const refused = await send('POST', '/refuse', 'x'.repeat(2 * 1024 * 1024));
    expect(refused.status).toBe(403);
    const next = await send('GET', '/ok');
    expect(next).toMatchObject({ status: 200, text: '{"ok":true}' });
    expect(next.socket).toBe(refused.socket);
  });
});
