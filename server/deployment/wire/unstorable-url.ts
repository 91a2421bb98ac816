import type { MiddlewareHandler } from 'hono';
import { jsonError } from '@server/http/json-error';
import { unstorableReason } from './json-limits';

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    // Malformed escapes never name a stored record; routing and validation answer them.
    return '';
  }
};

/**
 * Refuses (422) a path segment or query value holding a string Postgres cannot store or match
 * (`/assistants/%00`): every id and filter in a URL reaches a store query, and both backends
 * answer the same way.
 */
export function refuseUnstorableUrl(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const segments = url.pathname.split('/').map(decoded);
    const queries = [...url.searchParams].flatMap(([key, value]) => [key, value]);
    for (const [where, texts] of [
      ['path', segments],
      ['query', queries],
    ] as const) {
      const reason = texts.map(unstorableReason).find(Boolean);
      if (reason) return jsonError(c, 422, `${where}: ${reason}`);
    }
    await next();
  };
}
