import { type Context, Hono } from 'hono';
import { jsonError } from '../http/json-error';
import type { ProxiedCaller } from '../http/proxied-caller';
import { clientAddress } from './auth/console-auth';
import type { ConsoleAction } from '@contracts/console-roles';
import type { ConsoleAuthorizer } from './auth/authorize-console-request';
import { routeAction, type ConsoleRoute } from './console-routes';

/** Where the console's requests for one area go: an embedded service, or a remote base URL. */
export type ProxyTarget =
  | {
      kind: 'embedded';
      fetch: (request: Request, caller: ProxiedCaller) => Response | Promise<Response>;
    }
  | { kind: 'remote'; baseUrl: string };

interface ConsoleProxyOptions {
  /** Where this proxy is mounted, e.g. `/_console/usage`. */
  mountPath: string;
  target: ProxyTarget;
  /** The only requests forwarded; anything else answers JSON 404 without reaching the target. */
  routes: readonly ConsoleRoute[];
  /** The key the server holds for this target; sent only when the browser sends none. */
  serverApiKey: string | undefined;
  /** Header the upstream reads its key from (LangSmith and LangGraph both use `x-api-key`). */
  keyHeader?: string;
  /**
   * Who may send each request and with which key (sign-in and the role table). Unset: every
   * request acts with `serverApiKey` when the browser sends none.
   */
  authorize?: ConsoleAuthorizer;
  /** The role-table action of this area's routes that name none (`routeAction`). */
  areaAction?: ConsoleAction;
  /** CONSOLE_TRUST_PROXY: the browser's address is the last `X-Forwarded-For` hop. */
  trustProxy?: boolean;
}

const FORWARDED_REQUEST_HEADERS = [
  'accept',
  'content-type',
  'x-api-key',
  'authorization',
  // LangSmith's workspace header (the usage-limits API reads it).
  'x-tenant-id',
];
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'content-disposition',
  'cache-control',
  'content-location',
  // A refusal over a limit (open streams) says when to come back.
  'retry-after',
];

/**
 * The browser's door to the usage and deployment APIs. It adds the server's key (which the browser
 * never sees) and forwards to the embedded service in-process or to the configured remote URL,
 * streaming both ways so long exports and run joins pass through untouched. It never follows a
 * redirect: the server's key must reach the configured host and no other.
 */
export function createConsoleProxy({
  mountPath,
  target,
  routes,
  serverApiKey,
  keyHeader = 'x-api-key',
  authorize,
  areaAction,
  trustProxy = false,
}: ConsoleProxyOptions) {
  const app = new Hono();
  const forward = async (c: Context, route: ConsoleRoute) => {
    const allowed = authorize
      ? await authorize(c, routeAction(route, areaAction))
      : { credential: { kind: 'server' } as const };
    if ('response' in allowed) return allowed.response;
    const { credential } = allowed;
    const incoming = new URL(c.req.url);
    const relative = incoming.pathname.slice(mountPath.length) || '/';

    const headers = new Headers();
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    if (credential.kind === 'key') {
      // A signed-in user's request carries their credential and no other.
      headers.delete(keyHeader);
      headers.delete('authorization');
      if (credential.apiKey) headers.set(keyHeader, credential.apiKey);
      if (credential.actor) headers.set('x-console-actor', credential.actor);
    } else if (!headers.has(keyHeader) && serverApiKey) {
      headers.set(keyHeader, serverApiKey);
    }

    const url =
      target.kind === 'embedded'
        ? `http://embedded${relative}${incoming.search}`
        : `${target.baseUrl.replace(/\/+$/, '')}${relative}${incoming.search}`;
    const hasBody = !['GET', 'HEAD'].includes(c.req.method);
    const request = new Request(url, {
      method: c.req.method,
      headers,
      body: hasBody ? c.req.raw.body : null,
      signal: c.req.raw.signal,
      redirect: 'manual',
      // Node's fetch needs this to stream a request body.
      ...(hasBody ? { duplex: 'half' } : {}),
    });

    let upstream: Response;
    try {
      upstream =
        target.kind === 'embedded'
          ? await target.fetch(request, {
              client:
                credential.kind === 'key' && credential.actor
                  ? `console user ${credential.actor}`
                  : `console address ${clientAddress(c, trustProxy)}`,
            })
          : await fetch(request);
    } catch (error) {
      if (c.req.raw.signal.aborted) return new Response(null, { status: 499 });
      const reason = error instanceof Error ? (error.cause ?? error).toString() : String(error);
      return jsonError(c, 502, `Could not reach ${url.split('?')[0]}: ${reason}`);
    }

    if (upstream.status >= 300 && upstream.status < 400) {
      await upstream.body?.cancel();
      const location = upstream.headers.get('location') ?? 'another address';
      return jsonError(
        c,
        502,
        `${url.split('?')[0]} answered ${upstream.status} to ${location.split('?')[0]}; the console ` +
          'does not follow redirects with its key. Configure the final address instead.',
      );
    }

    const responseHeaders = new Headers();
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = upstream.headers.get(name);
      if (value) responseHeaders.set(name, value);
    }
    return new Response(upstream.body, { status: upstream.status, headers: responseHeaders });
  };
  for (const route of routes) app.on(route.method, route.path, (c) => forward(c, route));
  return app;
}
