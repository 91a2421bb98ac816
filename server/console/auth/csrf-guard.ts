import type { MiddlewareHandler } from 'hono';
import { jsonError } from '@server/http/json-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a state-changing request comes from this server's own pages: an `Origin` naming the
 * host it was sent to, or a browser's `Sec-Fetch-Site: same-origin`. Browsers send one of them
 * on every such request; a request with neither (a form from an old browser, a tool replaying a
 * cookie) is refused.
 */
export function isSameOriginRequest(headers: {
  host: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
}): boolean {
  if (headers.origin !== undefined) {
    try {
      return new URL(headers.origin).host.toLowerCase() === headers.host.toLowerCase();
    } catch {
      return false;
    }
  }
  return headers.secFetchSite === 'same-origin';
}

/** 403 for a state-changing console request that is not same-origin (CSRF). */
export function csrfGuard(): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const sameOrigin = isSameOriginRequest({
      host: c.req.header('host') ?? new URL(c.req.url).host,
      origin: c.req.header('origin'),
      secFetchSite: c.req.header('sec-fetch-site'),
    });
    if (!sameOrigin) {
      return jsonError(
        c,
        403,
        'Changes through the console must come from its own pages (same-origin Origin header).',
      );
    }
    return next();
  };
}
