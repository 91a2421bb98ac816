import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitAlertPayload } from '@contracts/usage/usage-limits';
import type { DeliveryAttempt } from '../store/usage-limit-store';
import { deliverAlert, type WebhookConfig } from './webhook-sender';

const payload: LimitAlertPayload = {
  type: 'usage_limit.threshold_crossed',
  alert_id: 'alert-1',
  workspace_id: '00000000-0000-4000-8000-000000000001',
  workspace_name: 'Acme',
  scope: 'workspace',
  target_id: '00000000-0000-4000-8000-000000000001',
  limit_type: 'monthly_traces',
  limit_value: 10,
  threshold: 50,
  used: 5,
  month_start: '2026-11-01T00:00:00.000Z',
  resets_at: '2026-12-01T00:00:00.000Z',
  crossed_at: '2026-11-25T09:00:00.000Z',
};

/** Answers each request with the next status of `script` (the last one repeats). */
let script: number[] = [];
let hits = 0;
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const status = script[Math.min(hits, script.length - 1)] ?? 200;
    hits += 1;
    response.writeHead(status).end();
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

async function deliver(config: Partial<WebhookConfig>, statuses: number[]) {
  script = statuses;
  hits = 0;
  const attempts: DeliveryAttempt[] = [];
  const waits: number[] = [];
  const ok = await deliverAlert(
    { url, secret: 's', attempts: 4, baseDelayMs: 100, timeoutMs: 2000, ...config },
    payload,
    async (attempt) => void attempts.push(attempt),
    async (ms) => void waits.push(ms),
  );
  return { ok, attempts: attempts.map((a) => [a.attempt, a.status, a.ok]), waits };
}

describe('deliverAlert', () => {
  it.each([
    ['delivered at once', [204], true, [[1, 204, true]], []],
    [
      'retried with doubling waits after 503, 429 and 500',
      [503, 429, 500, 200],
      true,
      [
        [1, 503, false],
        [2, 429, false],
        [3, 500, false],
        [4, 200, true],
      ],
      [100, 200, 400],
    ],
    ['a 400 is final: the receiver refuses it', [400, 200], false, [[1, 400, false]], []],
    [
      'given up after the last attempt',
      [500],
      false,
      [
        [1, 500, false],
        [2, 500, false],
        [3, 500, false],
        [4, 500, false],
      ],
      [100, 200, 400],
    ],
  ])('%s', async (_label, statuses, ok, attempts, waits) => {
    expect(await deliver({}, statuses)).toEqual({ ok, attempts, waits });
  });

  it('logs an unreachable receiver with the error and no status, and retries it', async () => {
    const attempts: DeliveryAttempt[] = [];
    const ok = await deliverAlert(
      {
        url: 'http://127.0.0.1:9/unreachable',
        secret: 's',
        attempts: 2,
        baseDelayMs: 1,
        timeoutMs: 2000,
      },
      payload,
      async (attempt) => void attempts.push(attempt),
    );
    expect(ok).toBe(false);
    expect(attempts.map((a) => [a.attempt, a.status, a.ok])).toEqual([
      [1, null, false],
      [2, null, false],
    ]);
    expect(attempts[0]?.error).toMatch(/fetch failed|ECONNREFUSED/);
  });
});
