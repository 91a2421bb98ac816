import http from 'node:http';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SF, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

interface Opened {
  status: number;
  retryAfter: string | undefined;
  body: string;
  close: () => void;
}

/**
 * A request sent from `from` (any 127.x address reaches the server on 127.0.0.1: each is another
 * client): resolves with the answer's head, and its body when it is not a stream.
 */
function send(url: string, from: string, method = 'GET', body?: unknown): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(url, {
      method,
      localAddress: from,
      headers: payload ? { 'content-type': 'application/json' } : {},
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const close = () => request.destroy();
      const answer = {
        status: response.statusCode ?? 0,
        retryAfter: response.headers['retry-after'],
        close,
      };
      if (String(response.headers['content-type']).startsWith('text/event-stream')) {
        response.on('error', () => undefined);
        resolve({ ...answer, body: '' });
        return;
      }
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ ...answer, body: text }));
    });
    request.end(payload);
  });
}

/** A protocol v2 WebSocket from `from`: open, or the HTTP answer that refused its upgrade. */
function openSocket(url: string, from: string): Promise<Opened & { socket?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url.replace(/^http/, 'ws'), { localAddress: from });
    const close = () => socket.terminate();
    socket.on('open', () =>
      resolve({ status: 101, retryAfter: undefined, body: '', close, socket }),
    );
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: response.headers['retry-after'],
          body: text,
          close,
        }),
      );
    });
    socket.on('error', reject);
  });
}

describe('open streams capped per client and in all', () => {
  const deployment = useTestDeployment({
    stepMs: 0,
    env: { DEPLOYMENT_STREAMS_PER_CLIENT: '2', DEPLOYMENT_MAX_STREAMS: '3' },
  });

  const threadStream = async (from: string) => {
    const { thread_id } = await deployment.client.threads.create();
    return send(`${deployment.url}/threads/${thread_id}/stream`, from);
  };

  it('refuses a client its third stream with 429 before creating the run, and takes it once one closes', async () => {
    const open = [await threadStream('127.0.0.1'), await threadStream('127.0.0.1')];
    expect(open.map((stream) => stream.status)).toEqual([200, 200]);

    const { thread_id } = await deployment.client.threads.create();
    const refused = await send(
      `${deployment.url}/threads/${thread_id}/runs/stream`,
      '127.0.0.1',
      'POST',
      { assistant_id: 'agent', input: userInput(SF) },
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((JSON.parse(refused.body) as { detail: string }).detail).toMatch(/open streams/);
    // Refused at the door: no run was created on the thread.
    expect(await deployment.client.runs.list(thread_id)).toEqual([]);

    // Another client is not held to this one's cap.
    const other = await threadStream('127.0.0.2');
    expect(other.status).toBe(200);

    open[0]?.close();
    let again: Opened | undefined;
    for (let tries = 0; tries < 50 && again?.status !== 200; tries += 1) {
      again?.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await threadStream('127.0.0.1');
    }
    expect(again?.status).toBe(200);
    [open[1], other, again].forEach((stream) => stream?.close());
  });

  it('refuses any client with 503 once the process holds its most streams', async () => {
    const open = [
      await threadStream('127.0.0.1'),
      await threadStream('127.0.0.2'),
      await threadStream('127.0.0.3'),
    ];
    expect(open.map((stream) => stream.status)).toEqual([200, 200, 200]);
    const refused = await threadStream('127.0.0.4');
    expect(refused.status).toBe(503);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((JSON.parse(refused.body) as { detail: string }).detail).toMatch(/open streams/);
    open.forEach((stream) => stream.close());
  });

  it('gives the slot of a stream that ended back: runs streamed one after another never hit the cap', async () => {
    for (let i = 0; i < 4; i += 1) {
      const { thread_id } = await deployment.client.threads.create();
      const parts = [];
      for await (const part of deployment.client.runs.stream(thread_id, 'agent', {
        input: userInput(SF),
      })) {
        parts.push(part.event);
      }
      expect(parts.at(-1)).not.toBe('error');
    }
  }, 30_000);
  const threadSocket = async (from: string) => {
    const { thread_id } = await deployment.client.threads.create();
    return openSocket(`${deployment.url}/threads/${thread_id}/stream/events`, from);
  };

  it('counts a protocol v2 WebSocket as a stream while it is open: the upgrade over the cap is refused with 429', async () => {
    const open = [await threadSocket('127.0.0.1'), await threadSocket('127.0.0.1')];
    expect(open.map((socket) => socket.status)).toEqual([101, 101]);

    const refused = await threadSocket('127.0.0.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((JSON.parse(refused.body) as { detail: string }).detail).toMatch(/open streams/);
    // Sockets and SSE streams share the client's cap.
    expect((await threadStream('127.0.0.1')).status).toBe(429);

    // An open socket keeps working whatever the cap: it subscribes and is answered.
    const answered = new Promise<unknown>((resolve) =>
      open[0]?.socket?.once('message', (data) => resolve(JSON.parse(String(data)))),
    );
    open[0]?.socket?.send(
      JSON.stringify({ id: 1, method: 'subscription.subscribe', params: { channels: ['values'] } }),
    );
    expect(await answered).toMatchObject({ type: 'success', id: 1 });

    // A closed socket gives its slot back.
    open[0]?.close();
    let again: Opened | undefined;
    for (let tries = 0; tries < 50 && again?.status !== 101; tries += 1) {
      again?.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await threadSocket('127.0.0.1');
    }
    expect(again?.status).toBe(101);
    [open[1], again].forEach((socket) => socket?.close());
  });

  it('refuses any client a WebSocket with 503 once the process holds its most streams', async () => {
    const open = [
      await threadSocket('127.0.0.1'),
      await threadStream('127.0.0.2'),
      await threadSocket('127.0.0.3'),
    ];
    expect(open.map((stream) => stream.status)).toEqual([101, 200, 101]);
    const refused = await threadSocket('127.0.0.4');
    expect(refused.status).toBe(503);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((JSON.parse(refused.body) as { detail: string }).detail).toMatch(/open streams/);
    open.forEach((stream) => stream.close());
  });
});
