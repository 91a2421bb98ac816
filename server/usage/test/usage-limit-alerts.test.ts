import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertDeliveryListSchema, limitAlertPayloadSchema } from '@contracts/usage/usage-limits';
import { SIGNATURE_HEADER, verifyAlertSignature } from '../limits/alert-signature';
import { LIMIT_BACKENDS, limitBackendEnv } from './limit-backends';
import { limitStatus, putLimit } from './limit-helpers';
import { ADMIN, startTestServer, TEST_WORKSPACE_IDS, type TestServer } from './test-server';

const SECRET = 'whsec_test_only';
const workspace = TEST_WORKSPACE_IDS[1] ?? '';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A local receiver: answers 500 to the first attempt of every alert, 200 afterwards. */
const received: Received[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    const alertId = String(request.headers['x-usage-alert-id']);
    const first = !received.some((entry) => entry.headers['x-usage-alert-id'] === alertId);
    const answered = first ? 500 : 200;
    received.push({ headers: request.headers, body, answered });
    response.writeHead(answered).end();
  });
});
let server: TestServer;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

async function sendRoots(count: number) {
  const post = Array.from({ length: count }, () => {
    const id = randomUUID();
    return { id, trace_id: id, name: 'root', run_type: 'chain', session_name: 'alerts' };
  });
  const response = await fetch(`${server.baseUrl}/api/v1/runs/batch`, {
    method: 'POST',
    headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
    body: JSON.stringify({ post }),
  });
  return response.status;
}

describe.each(LIMIT_BACKENDS)('usage limit alerts to a signed webhook ($name)', (backend) => {
  let store: Awaited<ReturnType<typeof limitBackendEnv>> | undefined;
  beforeAll(async () => {
    if (backend.skip) return;
    received.length = 0;
    store = await limitBackendEnv(backend, 'limits_alerts');
    const { port } = receiver.address() as AddressInfo;
    server = await startTestServer({
      ...store.env,
      USAGE_ALERT_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/usage`,
      USAGE_ALERT_WEBHOOK_SECRET: SECRET,
      USAGE_ALERT_WEBHOOK_BACKOFF_MS: '20',
    });
  }, 120_000);
  afterAll(async () => {
    if (backend.skip) return;
    await server.close();
    await store?.drop();
  });
  beforeEach(({ skip }) => {
    if (backend.skip) skip();
  });

  it('delivers 50/80/100 % once each, signed, retried after a 500, and logs every attempt', async () => {
    const before = await limitStatus(server.baseUrl, workspace);
    await putLimit(server.baseUrl, workspace, before.used + 10);

    expect(await sendRoots(5)).toBe(202); // 50 %
    await server.service.alerts.idle();
    expect(await sendRoots(3)).toBe(202); // 80 %
    await server.service.alerts.idle();
    expect(await sendRoots(4)).toBe(429); // 2 billed: 100 %, 2 refused
    await server.service.alerts.idle();
    // Looked at again: more refusals, the limit re-set to the same value. Nothing new is sent.
    expect(await sendRoots(2)).toBe(429);
    await putLimit(server.baseUrl, workspace, before.used + 10);
    await server.service.alerts.idle();

    const payloads = received.map((entry) => limitAlertPayloadSchema.parse(JSON.parse(entry.body)));
    const delivered = received.filter((entry) => entry.answered === 200);
    expect(
      delivered.map((entry) => limitAlertPayloadSchema.parse(JSON.parse(entry.body)).threshold),
    ).toEqual([50, 80, 100]);
    // Each alert: a 500, then a retry with the same body and id, answered 200.
    expect(
      received.map((entry) => [entry.answered, entry.headers['x-usage-delivery-attempt']]),
    ).toEqual([
      [500, '1'],
      [200, '2'],
      [500, '1'],
      [200, '2'],
      [500, '1'],
      [200, '2'],
    ]);
    const nowSec = Math.floor(Date.now() / 1000);
    for (const entry of received) {
      const header = entry.headers[SIGNATURE_HEADER];
      expect(verifyAlertSignature(SECRET, String(header), entry.body, nowSec)).toBe(true);
      expect(verifyAlertSignature('another secret', String(header), entry.body, nowSec)).toBe(
        false,
      );
      expect(
        verifyAlertSignature(
          SECRET,
          String(header),
          entry.body.replace('"used":', '"used":1'),
          nowSec,
        ),
      ).toBe(false);
      // The webhook never receives a key.
      expect(`${JSON.stringify(entry.headers)}${entry.body}`).not.toMatch(/lsv2_|x-api-key/i);
    }
    expect(payloads[4]).toMatchObject({
      type: 'usage_limit.threshold_crossed',
      workspace_id: workspace,
      limit_type: 'monthly_traces',
      limit_value: before.used + 10,
      threshold: 100,
      used: before.used + 10,
    });

    const log = await fetch(`${server.baseUrl}/api/v1/usage-limits/org/deliveries`, {
      headers: ADMIN,
    });
    const deliveries = alertDeliveryListSchema.parse(await log.json());
    expect(
      deliveries.map((entry) => [entry.threshold, entry.attempt, entry.status, entry.ok]),
    ).toEqual([
      [100, 2, 200, true],
      [100, 1, 500, false],
      [80, 2, 200, true],
      [80, 1, 500, false],
      [50, 2, 200, true],
      [50, 1, 500, false],
    ]);
    const status = await limitStatus(server.baseUrl, workspace);
    expect(status.alerts.map((alert) => alert.threshold)).toEqual([50, 80, 100]);
    expect(status.reached_at).toBe(status.alerts[2]?.crossed_at);
  });
});
