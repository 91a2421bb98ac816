import type { Context, MiddlewareHandler } from 'hono';
import type { CorsPolicy } from './cors-policy';
import { jsonError } from './json-error';

interface BrowserGuardOptions {
  /**
   * Host names the server answers to; others get 403. Stops DNS rebinding: a page on
   * attacker.example whose name now resolves to 127.0.0.1 sends `Host: attacker.example`.
   * Undefined skips the check (APIs that act with no server-held key).
   */
  allowedHosts?: ReadonlySet<string>;
  /** Cross-origin pages this API answers (CORS); without it every foreign Origin gets 403. */
  cors?: CorsPolicy;
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostnameOf(host: string): string {
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return '';
  }
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined; // "null" (sandboxed frames, file://) matches no host
  }
}

/**
 * The CORS answer to an allowed foreign origin: headers on the response, and the whole answer
 * to a preflight (with Chromium's private-network grant: Studio is a public https page calling a
 * loopback address).
 */
function answerCors(c: Context, cors: CorsPolicy, origin: string): Response | undefined {
  const set = (name: string, value: string) => c.res.headers.set(name, value);
  const wildcard = cors.anyOrigin && !cors.allowCredentials;
  set('Access-Control-Allow-Origin', wildcard ? '*' : origin);
  if (!wildcard) c.res.headers.append('Vary', 'Origin');
  if (cors.allowCredentials) set('Access-Control-Allow-Credentials', 'true');
  set('Access-Control-Expose-Headers', cors.exposeHeaders.join(','));
  if (c.req.method !== 'OPTIONS' || !c.req.header('access-control-request-method')) return;
  set('Access-Control-Allow-Methods', cors.allowMethods.join(','));
  const headers = cors.allowHeaders?.join(',') ?? c.req.header('access-control-request-headers');
  if (headers) set('Access-Control-Allow-Headers', headers);
  if (cors.maxAge !== undefined) set('Access-Control-Max-Age', String(cors.maxAge));
  if (c.req.header('access-control-request-private-network') === 'true') {
    set('Access-Control-Allow-Private-Network', 'true');
  }
  c.res.headers.delete('Content-Type');
  c.res.headers.delete('Content-Length');
  return new Response(null, { status: 204, headers: c.res.headers });
}

/**
 * What keeps other web pages from using this server through a visitor's browser:
 * - a request whose `Origin` is not this server's own origin is refused (403) unless `cors`
 *   allows that origin, and so is one a browser marks `Sec-Fetch-Site: cross-site` without one;
 * - a body must be JSON (415 otherwise): `text/plain`, form and multipart bodies are what a
 *   cross-site page can send without a CORS preflight;
 * - with `allowedHosts`, the `Host` header must name this server (403 otherwise).
 * Clients that are not browsers (the SDK in Node, curl) send no Origin and pass.
 */
export function browserGuard({ allowedHosts, cors }: BrowserGuardOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    // @hono/node-server builds the URL from the Host header; in-process requests have no header.
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    if (allowedHosts && !allowedHosts.has(hostnameOf(host))) {
      return jsonError(
        c,
        403,
        `Host "${host}" is not one this server answers to; add it to ALLOWED_HOSTS.`,
      );
    }
    const origin = c.req.header('origin');
    // Hosts, not origins: behind a TLS proxy the page is https while this server sees http.
    if (origin !== undefined && originHost(origin) !== host.toLowerCase()) {
      if (!cors?.allows(origin)) {
        const how = cors ? `; allow it with ${cors.source}` : '';
        return jsonError(c, 403, `Cross-origin request from ${origin} refused${how}.`);
      }
      const preflight = answerCors(c, cors, origin);
      if (preflight) return preflight;
    } else if (c.req.header('sec-fetch-site') === 'cross-site') {
      return jsonError(c, 403, 'Cross-site request refused.');
    }
    const hasBody =
      !BODYLESS_METHODS.has(c.req.method) &&
      (Number(c.req.header('content-length') ?? 0) > 0 ||
        c.req.header('transfer-encoding') !== undefined);
    const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (hasBody && type !== 'application/json') {
      return jsonError(c, 415, 'Request bodies must be JSON (Content-Type: application/json).');
    }
    await next();
  };
}
