import type { Context, MiddlewareHandler } from 'hono';
import type { Metrics } from './metrics';

/**
 * The pattern of the route that answered (`/deployment/threads/:threadId/runs/stream`), so a
 * series never carries an id; the SPA and unknown paths fall to a wildcard (`*`, `/deployment/*`).
 */
const routeOf = (c: Context): string => c.req.routePath || '*';

/** Passes `body` through and calls `closed` once, when it ends or the client goes away. */
function watchEnd(body: ReadableStream<Uint8Array>, closed: () => void) {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          closed();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        closed();
        controller.error(error);
      }
    },
    async cancel(reason) {
      closed();
      await reader.cancel(reason);
    },
  });
}

/**
 * Times every request by route pattern, method and status (until the response starts: a
 * stream's length is the client's, not the server's latency), and counts SSE streams open.
 */
export function httpMetrics(metrics: Pick<Metrics, 'request' | 'streamOpened'>): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const route = routeOf(c);
    metrics.request(route, c.req.method, c.res.status, (performance.now() - started) / 1000);
    const body = c.res.body;
    if (!body || !(c.res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return;
    const { status, statusText, headers } = c.res;
    c.res = new Response(watchEnd(body, metrics.streamOpened(route)), {
      status,
      statusText,
      headers,
    });
  };
}
