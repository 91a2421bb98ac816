import { BlockList, isIP } from 'node:net';
import { classifyAddress } from './address-class';

/**
 * The rules every run and cron webhook follows: the langgraph.json `webhooks.url` policy of the
 * Agent Server, plus ours (private addresses closed unless opened, signing, the off switch).
 */
export interface WebhookPolicy {
  /** Off: a run or cron naming a webhook is refused (422), none is sent. */
  enabled: boolean;
  requireHttps: boolean;
  /** Exact host names, or `*.example.com` for its subdomains (not the apex); empty: any host. */
  allowedDomains: string[];
  /** Ports an absolute URL may use (its scheme's default when it names none); empty: any. */
  allowedPorts: number[];
  maxUrlLength: number | null;
  /** Refuses relative webhooks (`/path`: a route of this server, called in-process). */
  disableLoopback: boolean;
  /** Hosts (names, addresses, CIDR ranges) whose non-public addresses webhooks may reach. */
  privateHosts: string[];
  /** Sent with every webhook (langgraph.json `webhooks.headers`, templates resolved). */
  headers: Record<string, string>;
  /** Signs every webhook (`X-Webhook-Signature`) when set. */
  signingSecret: string | undefined;
}

export const DEFAULT_WEBHOOK_POLICY: WebhookPolicy = {
  enabled: true,
  requireHttps: false,
  allowedDomains: [],
  allowedPorts: [],
  maxUrlLength: null,
  disableLoopback: false,
  privateHosts: [],
  headers: {},
  signingSecret: undefined,
};

/** Where a webhook goes: a route of this server (in-process), or a URL outside. */
export type WebhookTarget = { kind: 'relative'; path: string } | { kind: 'absolute'; url: URL };

export type WebhookCheck = { ok: true; target: WebhookTarget } | { ok: false; detail: string };

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** A URL host without IPv6 brackets, lower case (the URL parser already lowered names). */
export const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

function domainAllowed(host: string, domains: string[]): boolean {
  return domains.some((domain) =>
    domain.startsWith('*.') ? host.endsWith(domain.slice(1)) : host === domain,
  );
}

/** Whether `host` (resolving to `address`) is one the operator opened to webhooks. */
function opened(host: string, address: string, privateHosts: string[]): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const addresses = new BlockList();
  for (const entry of privateHosts) {
    const [base = '', prefix] = entry.split('/');
    const baseFamily = isIP(base) === 4 ? 'ipv4' : 'ipv6';
    if (isIP(base) === 0) {
      if (entry === host) return true;
    } else if (prefix === undefined) addresses.addAddress(base, baseFamily);
    else addresses.addSubnet(base, Number(prefix), baseFamily);
  }
  return addresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why a webhook to `host` may not connect to `address` (a resolved or literal IP), or null when
 * it may. Every non-public address is closed unless the operator opened the host or the address
 * (WEBHOOK_ALLOW_PRIVATE_HOSTS); a cloud metadata address never opens.
 */
export function addressRefusal(
  host: string,
  address: string,
  policy: WebhookPolicy,
): string | null {
  const addressClass = classifyAddress(address);
  if (addressClass === null) return `${address} is not an IP address`;
  if (addressClass === 'public') return null;
  if (addressClass === 'metadata') return `${address} is a cloud metadata address`;
  if (opened(host, address, policy.privateHosts)) return null;
  return `${address} is a ${addressClass} address (open it with WEBHOOK_ALLOW_PRIVATE_HOSTS)`;
}

/** Names that resolve to this machine by definition (RFC 6761), whatever DNS says. */
const isLocalhostName = (host: string) =>
  host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.';

/**
 * Checks a webhook as given at run or cron creation (and again before delivery): syntax, scheme,
 * length, port, domain list, and an IP literal's class. Names are resolved only at delivery,
 * since what they resolve to can change.
 */
export function checkWebhookUrl(raw: string, policy: WebhookPolicy): WebhookCheck {
  const refuse = (reason: string): WebhookCheck => ({ ok: false, detail: `webhook: ${reason}` });
  if (!policy.enabled) return refuse('webhooks are disabled on this server (WEBHOOKS_ENABLED)');
  if (policy.maxUrlLength !== null && raw.length > policy.maxUrlLength) {
    return refuse(`longer than ${policy.maxUrlLength} characters`);
  }
  if (/^\/(?![/\\])/.test(raw)) {
    if (policy.disableLoopback) return refuse('relative URLs (this server) are not allowed');
    return { ok: true, target: { kind: 'relative', path: raw } };
  }
  const url = URL.parse(raw);
  if (!url) return refuse('not a URL or a path of this server (/...)');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('must be http(s)');
  if (policy.requireHttps && url.protocol !== 'https:') return refuse('must be https');
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  if (policy.allowedPorts.length > 0 && !policy.allowedPorts.includes(port ?? 0)) {
    return refuse(`port ${port} is not allowed`);
  }
  const host = bareHost(url);
  if (policy.allowedDomains.length > 0 && !domainAllowed(host, policy.allowedDomains)) {
    return refuse(`host ${host} is not an allowed domain`);
  }
  const literal = isIP(host) !== 0 ? host : isLocalhostName(host) ? '127.0.0.1' : null;
  const refusal = literal && addressRefusal(host, literal, policy);
  return refusal ? refuse(refusal) : { ok: true, target: { kind: 'absolute', url } };
}

/** Why a run or cron may not name `webhook` (a 422's detail), or null when it may or names none. */
export function webhookRefusal(
  webhook: string | null | undefined,
  policy: WebhookPolicy,
): string | null {
  if (webhook === null || webhook === undefined) return null;
  const checked = checkWebhookUrl(webhook, policy);
  return checked.ok ? null : checked.detail;
}
