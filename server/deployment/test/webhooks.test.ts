import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countRows } from './test-database';
import {
  removeDataDir,
  sleep,
  startTestDeployment,
  type TestDeployment,
  userInput,
} from './test-deployment';
import { useTestDeployment } from './use-test-deployment';
import { startWebhookReceiver } from './webhook-receiver';

const FIXTURES = path.join(import.meta.dirname, 'fixtures/graphs');
const CUSTOM_RECEIVED = Symbol.for('usage-console.test.custom-webhook');
const SECRET = 'whsec-test';

// A failed delivery is a warning line of the server's; the tests assert the ones they cause.
const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
afterAll(() => warnings.mockRestore());
// The official schema extractor cannot read a graph file outside the project from a temporary
// langgraph.json; the server says so and serves the graph with open schemas, which is expected here.
const printError = console.error.bind(console);
const errors = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('Cannot extract the schemas')) return;
  printError(...args);
});
afterAll(() => errors.mockRestore());
const warned = (text: string) =>
  warnings.mock.calls.some(([line]) => typeof line === 'string' && line.includes(text));

const receiver = startWebhookReceiver;

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(10);
}

async function post(deployment: TestDeployment, method: string, route: string, body: object) {
  const response = await fetch(`${deployment.url}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('webhooks by default', () => {
  const deployment = useTestDeployment({ stepMs: 0 });
  let threadId = '';
  let cronId = '';
  beforeAll(async () => {
    threadId = (await deployment.client.threads.create()).thread_id;
    const cron = await deployment.client.crons.create('agent', { schedule: '0 0 1 1 *' });
    cronId = cron.cron_id;
  });

  // The loopback, private and metadata forms a webhook used to reach (ClickHouse on loopback).
  const refused = [
    'http://127.0.0.1:8123/?query=INSERT%20INTO%20t%20VALUES%20(1)',
    'http://127.1:8123/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost:5173/',
    'http://10.0.0.8/',
    'http://172.20.1.1/',
    'http://192.168.0.1/',
    'http://100.64.0.1/',
    'http://[fd12:3456::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://0.0.0.0:5173/',
  ];

  it.each(refused)('a run with webhook %s is refused (422) and not created', async (webhook) => {
    const before = await countRows(deployment.dataDir, 'runs');
    const answer = await post(deployment, 'POST', `/threads/${threadId}/runs`, {
      assistant_id: 'agent',
      input: userInput('hi'),
      webhook,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toMatch(/^webhook: .* address/);
    expect(await countRows(deployment.dataDir, 'runs')).toBe(before);
  });

  const otherDoors: [string, () => string, object][] = [
    ['POST', () => '/runs/wait', { assistant_id: 'agent', input: userInput('hi') }],
    ['POST', () => '/runs/crons', { assistant_id: 'agent', schedule: '0 0 1 1 *' }],
    [
      'POST',
      () => `/threads/${threadId}/runs/crons`,
      { assistant_id: 'agent', schedule: '0 0 1 1 *' },
    ],
    ['PATCH', () => `/runs/crons/${cronId}`, {}],
  ];
  it.each(otherDoors)('%s %s with a loopback webhook: 422', async (method, route, body) => {
    const answer = await post(deployment, method, route(), {
      ...body,
      webhook: 'http://0x7f000001:8123/',
    });
    expect(answer).toEqual({
      status: 422,
      body: { detail: expect.stringMatching(/^webhook: 127\.0\.0\.1 is a loopback address/) },
    });
  });

  it('a public host and a path of this server are accepted at creation', async () => {
    for (const webhook of ['https://hooks.example.com/run-done', '/custom/webhook']) {
      const answer = await post(deployment, 'POST', `/threads/${threadId}/runs`, {
        assistant_id: 'agent',
        input: userInput('hi'),
        webhook,
      });
      await deployment.client.runs.join(threadId, String(answer.body.run_id));
      expect(answer.status).toBe(200);
    }
    // Accepted, then tried: nothing answers at either address in this test.
    await until(() => warned('/custom/webhook') && warned('hooks.example.com/run-done'));
    expect(warned('Webhook /custom/webhook of run')).toBe(true);
  });
});

describe('webhooks with langgraph.json rules, headers and a signing secret', () => {
  let deployment: TestDeployment;
  let configDir = '';
  let allowed: Awaited<ReturnType<typeof receiver>>;
  let inside: Awaited<ReturnType<typeof receiver>>;
  let redirecting: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    allowed = await receiver();
    inside = await receiver();
    redirecting = await receiver(307, `${inside.url}?stolen=1`);
    configDir = await mkdtemp(path.join(os.tmpdir(), 'webhooks-json-'));
    const config = path.join(configDir, 'langgraph.json');
    await writeFile(
      config,
      JSON.stringify({
        graphs: { echo: `./${path.relative(configDir, FIXTURES)}/echo.mts:graph` },
        http: { app: `${FIXTURES}/webhook-routes.mts:app` },
        env: { LG_WEBHOOK_TOKEN: 'token-from-env' },
        webhooks: {
          url: {
            allowed_domains: ['127.0.0.1', '*.hooks.example'],
            allowed_ports: [allowed.port, redirecting.port, 443],
            max_url_length: 120,
          },
          headers: { Authorization: 'Bearer ${{ env.LG_WEBHOOK_TOKEN }}' },
        },
      }),
    );
    deployment = await startTestDeployment({
      stepMs: 0,
      langgraphConfig: config,
      env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_SIGNING_SECRET: SECRET },
    });
  }, 120_000);

  afterAll(async () => {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
    await rm(configDir, { recursive: true, force: true });
    await Promise.all([allowed.close(), inside.close(), redirecting.close()]);
  });

  async function runWithWebhook(webhook: string) {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const run = await client.runs.create(thread_id, 'echo', { input: { text: 'hi' }, webhook });
    await client.runs.join(thread_id, run.run_id);
    return { thread_id, run_id: run.run_id };
  }

  const verifySignature = (header: string | undefined, body: string) => {
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
    const expected = createHmac('sha256', SECRET).update(`${match?.[1]}.${body}`).digest('hex');
    return match !== null && match[2] === expected;
  };

  it('an allow-listed receiver gets the run, signed, with the configured headers', async () => {
    const { thread_id, run_id } = await runWithWebhook(allowed.url);
    await until(() => allowed.received.length > 0);
    expect(allowed.received).toHaveLength(1);
    const [delivery] = allowed.received;
    expect(delivery?.headers).toMatchObject({
      authorization: 'Bearer token-from-env',
      'content-type': 'application/json',
    });
    expect(JSON.parse(delivery?.body ?? '')).toMatchObject({
      run_id,
      thread_id,
      status: 'success',
      values: { text: 'hi', echoed: 'hi!' },
    });
    expect(
      verifySignature(String(delivery?.headers['x-webhook-signature']), delivery?.body ?? ''),
    ).toBe(true);
  });

  it('a receiver answering 307 is not followed: its target never gets the body', async () => {
    await runWithWebhook(`http://127.0.0.1:${redirecting.port}/hook`);
    await until(() => redirecting.received.length > 0);
    await sleep(300);
    expect(redirecting.received).toHaveLength(1);
    expect(inside.received).toEqual([]);
    expect(warned('answered 307; redirects are not followed')).toBe(true);
  });

  it('a relative webhook reaches the custom route in-process, signed', async () => {
    const { run_id } = await runWithWebhook('/custom/webhook');
    const received = () =>
      (Reflect.get(globalThis, CUSTOM_RECEIVED) as { body: string; signature?: string }[]) ?? [];
    await until(() => received().some((r) => r.body.includes(run_id)));
    const delivery = received().find((r) => r.body.includes(run_id));
    expect(verifySignature(delivery?.signature, delivery?.body ?? '')).toBe(true);
  });

  it.each([
    ['https://hooks.example/', 'webhook: host hooks.example is not an allowed domain'],
    ['https://evil.example/', 'webhook: host evil.example is not an allowed domain'],
    ['http://127.0.0.1:1/hook', 'webhook: port 1 is not allowed'],
    [`https://a.hooks.example/${'x'.repeat(120)}`, 'webhook: longer than 120 characters'],
  ])('%s is refused at creation: %s', async (webhook, detail) => {
    const { thread_id } = await deployment.client.threads.create();
    const answer = await post(deployment, 'POST', `/threads/${thread_id}/runs`, {
      assistant_id: 'echo',
      input: { text: 'hi' },
      webhook,
    });
    expect(answer).toEqual({ status: 422, body: { detail } });
  });

  it('an allowed subdomain is accepted at creation', async () => {
    const { thread_id } = await deployment.client.threads.create();
    const answer = await post(deployment, 'POST', `/threads/${thread_id}/runs/crons`, {
      assistant_id: 'echo',
      schedule: '0 0 1 1 *',
      webhook: 'https://a.hooks.example/done',
    });
    expect(answer.status).toBe(200);
  });
});

describe('webhooks switched off (WEBHOOKS_ENABLED=false)', () => {
  const deployment = useTestDeployment({ stepMs: 0, env: { WEBHOOKS_ENABLED: 'false' } });

  it.each([
    ['/runs/wait', { assistant_id: 'agent', input: userInput('hi') }],
    ['/runs/crons', { assistant_id: 'agent', schedule: '0 0 1 1 *' }],
  ])('POST %s naming a webhook is refused, not run without it', async (route, body) => {
    const answer = await post(deployment, 'POST', route, {
      ...body,
      webhook: 'https://hooks.example.com/done',
    });
    expect(answer).toEqual({
      status: 422,
      body: { detail: 'webhook: webhooks are disabled on this server (WEBHOOKS_ENABLED)' },
    });
  });

  it('a run without a webhook still runs', async () => {
    const answer = await post(deployment, 'POST', '/runs/wait', {
      assistant_id: 'agent',
      input: userInput('hi'),
    });
    expect(answer.status).toBe(200);
  });
});
