import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  type ServerProcess,
} from './server-process';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  close: () => void;
}

/**
 * POSTs `body` to `url` from `from` (any 127.x address reaches the server: each is another
 * browser), resolving with the answer's head; a stream stays open until `close`.
 */
function post(
  url: string,
  from: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer & { json: () => Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      localAddress: from,
      headers: { 'content-type': 'application/json', origin: new URL(url).origin, ...headers },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      response.on('error', () => undefined);
      let text = '';
      const ended = new Promise<void>((done) => response.on('end', done));
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      resolve({
        status: response.statusCode ?? 0,
        retryAfter: response.headers['retry-after'],
        close: () => request.destroy(),
        json: async () => {
          await ended;
          return JSON.parse(text) as unknown;
        },
      });
    });
    request.end(JSON.stringify(body));
  });
}

describe("the embedded deployment's stream caps behind the console's proxy", () => {
  let server: ServerProcess;
  let url: string;
  const open: Answer[] = [];

  beforeAll(async () => {
    // One stream per client; runs slow enough to stay open for the test.
    server = await startServerProcess({
      DEPLOYMENT_STREAMS_PER_CLIENT: '1',
      DEMO_MODEL_STEP_MS: '20000',
    });
    url = await readyUrl(server);
  });
  afterAll(async () => {
    open.forEach((answer) => answer.close());
    server.child.kill('SIGTERM');
    await server.exited;
    await removeServerDataDirs();
  });

  /** Starts a run streamed through `base` (the console's proxy or the API) from `from`. */
  async function streamRun(base: string, from: string, headers?: Record<string, string>) {
    const thread = await post(`${url}${base}/threads`, from, {});
    const { thread_id } = (await thread.json()) as { thread_id: string };
    const input = { messages: [{ role: 'user', content: 'weather in sf?' }] };
    const answer = await post(
      `${url}${base}/threads/${thread_id}/runs/stream`,
      from,
      { assistant_id: 'agent', input },
      headers,
    );
    open.push(answer);
    return answer;
  }

  it('counts each browser behind the proxy as its own client', async () => {
    expect((await streamRun('_console/deployment', '127.0.0.1')).status).toBe(200);
    // Another browser through the same proxy is not held to the first one's cap.
    expect((await streamRun('_console/deployment', '127.0.0.2')).status).toBe(200);

    const refused = await streamRun('_console/deployment', '127.0.0.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // X-Forwarded-For is not trusted unless CONSOLE_TRUST_PROXY says a proxy sets it.
    const spoofed = await streamRun('_console/deployment', '127.0.0.1', {
      'x-forwarded-for': '10.0.0.7',
    });
    expect(spoofed.status).toBe(429);
  }, 30_000);

  it('does not take X-Forwarded-For from a caller of the API', async () => {
    expect((await streamRun('deployment', '127.0.0.3')).status).toBe(200);
    const spoofed = await streamRun('deployment', '127.0.0.3', { 'x-forwarded-for': '10.0.0.8' });
    expect(spoofed.status).toBe(429);
  }, 30_000);
});
