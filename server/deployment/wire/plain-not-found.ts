import type { MiddlewareHandler } from 'hono';

const detailOf = (body: unknown): string | undefined => {
  if (typeof body !== 'object' || body === null) return undefined;
  const { detail } = body as { detail?: unknown };
  return typeof detail === 'string' ? detail : undefined;
};

/**
 * The official JS server's 404 (the CLI's `langgraph dev`): the message as `text/plain`, e.g.
 * `Assistant not found`, which SDK users then see as `HTTP 404: Assistant not found`. Mounted
 * only when a langgraph.json is served, where this server stands in for that CLI; the demo
 * deployment keeps the platform's `{"detail": ...}` (see the status codes in docs/api.md).
 */
export function plainTextNotFound(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status !== 404 || !c.res.headers.get('content-type')?.includes('json')) return;
    const detail = detailOf(await c.res.clone().json());
    if (detail === undefined) return;
    const headers = new Headers(c.res.headers);
    headers.set('content-type', 'text/plain;charset=UTF-8');
    headers.delete('content-length');
    c.res = new Response(detail, { status: 404, headers });
  };
}
