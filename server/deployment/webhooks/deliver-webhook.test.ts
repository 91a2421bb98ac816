import { createHmac } from 'node:crypto';
import { startWebhookReceiver } from '../test/webhook-receiver';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookSender, type ResolveAll } from './deliver-webhook';
import { DEFAULT_WEBHOOK_POLICY, type WebhookPolicy } from './webhook-policy';

const servers: { close: () => Promise<void> }[] = [];
afterEach(() => Promise.all(servers.splice(0).map((server) => server.close())));

/** A receiver answering `status` (204 unless told), closed after each test. */
async function receiver(status = 204, location?: string) {
  const started = await startWebhookReceiver(status, location);
  servers.push(started);
  return started;
}

const policy = (overrides: Partial<WebhookPolicy>): WebhookPolicy => ({
  ...DEFAULT_WEBHOOK_POLICY,
  ...overrides,
});
const noLoopback = () => new Response(null, { status: 500 });
/** A DNS that knows a few names only, so that these tests never leave the machine. */
const fakeDns =
  (names: Record<string, string[]>): ResolveAll =>
  async (host) => {
    const addresses = names[host];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('webhook delivery', () => {
  it('a name resolving to loopback is refused at connection time, and nothing is sent', async () => {
    const target = await receiver();
    const sender = createWebhookSender(policy({}), {
      loopback: noLoopback,
      resolve: fakeDns({ 'rebind.example': ['127.0.0.1'] }),
    });
    const delivery = await sender.send(`http://rebind.example:${target.port}/hook`, '{}');
    expect(delivery).toEqual({
      ok: false,
      reason: '127.0.0.1 is a loopback address (open it with WEBHOOK_ALLOW_PRIVATE_HOSTS)',
    });
    expect(target.received).toEqual([]);
  });

  it('one private address among public ones is enough to refuse', async () => {
    const sender = createWebhookSender(policy({}), {
      loopback: noLoopback,
      resolve: fakeDns({ 'mixed.example': ['93.184.216.34', '10.0.0.7'] }),
    });
    expect(await sender.send('http://mixed.example/hook', '{}')).toEqual({
      ok: false,
      reason: '10.0.0.7 is a private address (open it with WEBHOOK_ALLOW_PRIVATE_HOSTS)',
    });
  });

  it('an opened name is delivered to the address that was checked, signed', async () => {
    const target = await receiver();
    const sender = createWebhookSender(
      policy({
        privateHosts: ['hooks.internal'],
        signingSecret: 'sekret',
        headers: { 'X-A': 'b' },
      }),
      {
        loopback: noLoopback,
        // The name exists nowhere else: reaching the receiver proves the connection used it.
        resolve: fakeDns({ 'hooks.internal': ['127.0.0.1'] }),
        now: () => 1_700_000_000_000,
      },
    );
    const body = '{"run_id":"r"}';
    expect(await sender.send(`http://hooks.internal:${target.port}/hook`, body)).toEqual({
      ok: true,
      status: 204,
    });
    const digest = createHmac('sha256', 'sekret').update(`1700000000.${body}`).digest('hex');
    expect(target.received).toEqual([
      {
        body,
        headers: expect.objectContaining({
          'content-type': 'application/json',
          'x-a': 'b',
          'x-webhook-signature': `t=1700000000,v1=${digest}`,
        }),
      },
    ]);
  });

  it('a redirect is a failed delivery; its target never gets the body', async () => {
    const inside = await receiver();
    const redirecting = await receiver(307, `http://127.0.0.1:${inside.port}/steal`);
    const sender = createWebhookSender(policy({ privateHosts: ['127.0.0.1'] }), {
      loopback: noLoopback,
    });
    expect(await sender.send(`http://127.0.0.1:${redirecting.port}/hook`, '{"a":1}')).toEqual({
      ok: false,
      reason: 'answered 307; redirects are not followed',
    });
    expect(redirecting.received).toHaveLength(1);
    expect(inside.received).toEqual([]);
  });

  it('a literal private address is refused before any connection', async () => {
    const target = await receiver();
    const sender = createWebhookSender(policy({}), { loopback: noLoopback });
    const delivery = await sender.send(`http://0x7f000001:${target.port}/`, '{}');
    expect(delivery).toMatchObject({ ok: false, reason: expect.stringContaining('loopback') });
    expect(target.received).toEqual([]);
  });

  it('a relative webhook goes to this server in-process, with the same headers', async () => {
    const requests: Request[] = [];
    const sender = createWebhookSender(policy({ signingSecret: 's' }), {
      loopback: (request) => {
        requests.push(request);
        return new Response('ok');
      },
    });
    expect(await sender.send('/custom/webhook?x=1', '{}')).toEqual({ ok: true, status: 200 });
    expect(requests.map((r) => [r.method, r.url, r.headers.has('x-webhook-signature')])).toEqual([
      ['POST', 'http://localhost/custom/webhook?x=1', true],
    ]);
  });
});
