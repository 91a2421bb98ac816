import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressRefusal, bareHost, checkWebhookUrl, type WebhookPolicy } from './webhook-policy';

/**
 * Our signature header (not the Agent Server's): `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">` keyed with WEBHOOK_SIGNING_SECRET, so a receiver can check origin and freshness.
 */
export const SIGNATURE_HEADER = 'X-Webhook-Signature';

export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

export type Delivery = { ok: true; status: number } | { ok: false; reason: string };

/** Resolves a host name to every address it has (dns.lookup with `all`), as the socket would. */
export type ResolveAll = (host: string) => Promise<{ address: string; family: number }[]>;

const resolveWithDns: ResolveAll = (host) => dns.promises.lookup(host, { all: true });

interface SenderOptions {
  /** Serves a relative webhook: a request to this server's own routes, in-process. */
  loopback: (request: Request) => Response | Promise<Response>;
  timeoutMs?: number;
  resolve?: ResolveAll;
  now?: () => number;
}

export interface WebhookSender {
  /** POSTs `body` (JSON text) to `webhook`; never throws, never follows a redirect. */
  send: (webhook: string, body: string) => Promise<Delivery>;
}

/**
 * The socket's own lookup: the addresses it connects to are the ones checked here, so a name
 * that resolves elsewhere between a check and the connection (DNS rebinding) cannot get in.
 */
function pinnedLookup(host: string, policy: WebhookPolicy, resolve: ResolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const wanted = addresses.filter((a) => !options.family || a.family === options.family);
        const refusal =
          wanted.length === 0
            ? `${hostname} has no address`
            : wanted.map((a) => addressRefusal(host, a.address, policy)).find(Boolean);
        if (refusal) return callback(new WebhookRefused(refusal), '', 0);
        const [first] = wanted;
        if (options.all) return callback(null, wanted);
        callback(null, first?.address ?? '', first?.family ?? 0);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

class WebhookRefused extends Error {
  override name = 'WebhookRefused';
}

const outcome = (status: number): Delivery =>
  status >= 200 && status < 300
    ? { ok: true, status }
    : {
        ok: false,
        reason:
          status >= 300 && status < 400
            ? `answered ${status}; redirects are not followed`
            : `answered ${status}`,
      };

/** POSTs over a fresh connection whose addresses `lookup` checks; a 3xx is returned as it is. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  lookup: LookupFunction,
  timeoutMs: number,
) {
  return new Promise<number>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup,
      agent: false,
      signal: AbortSignal.timeout(timeoutMs),
    });
    request.once('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('error', reject);
    request.end(body);
  });
}

/** Sends run and cron webhooks under `policy`, checked again at delivery (it may have changed). */
export function createWebhookSender(policy: WebhookPolicy, options: SenderOptions): WebhookSender {
  const { loopback, timeoutMs = 10_000, resolve = resolveWithDns, now = Date.now } = options;
  return {
    send: async (webhook, body) => {
      const checked = checkWebhookUrl(webhook, policy);
      if (!checked.ok) return { ok: false, reason: checked.detail };
      const headers: Record<string, string> = {
        ...policy.headers,
        'content-type': 'application/json',
        ...(policy.signingSecret && {
          [SIGNATURE_HEADER]: webhookSignature(
            policy.signingSecret,
            body,
            Math.floor(now() / 1000),
          ),
        }),
      };
      try {
        const { target } = checked;
        if (target.kind === 'relative') {
          const url = new URL(target.path, 'http://localhost');
          const request = new Request(url, { method: 'POST', headers, body, redirect: 'manual' });
          const response = await loopback(request);
          await response.body?.cancel();
          return outcome(response.status);
        }
        const lookup = pinnedLookup(bareHost(target.url), policy, resolve);
        return outcome(await post(target.url, headers, body, lookup, timeoutMs));
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
