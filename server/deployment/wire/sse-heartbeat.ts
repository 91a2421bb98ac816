import type { MiddlewareHandler } from 'hono';

/** An SSE comment: clients skip it, and the SDK's `streamIdleReconnect: "auto"` sizes its watchdog by it. */
const HEARTBEAT = new TextEncoder().encode(': heartbeat\n\n');
const NEWLINE = 0x0a;

/** True when `chunk` ends an SSE frame, so a comment written after it cannot split one. */
function endsFrame(chunk: Uint8Array): boolean {
  return chunk.length >= 2 && chunk.at(-1) === NEWLINE && chunk.at(-2) === NEWLINE;
}

/**
 * A pass-through of an SSE body that writes `: heartbeat` after every `intervalMs` without a
 * byte, as LangGraph Platform does: proxies with idle timeouts keep the connection, and a client
 * learns the cadence that tells a silent model from a half-open socket.
 */
export function heartbeatStream(intervalMs: number): TransformStream<Uint8Array, Uint8Array> {
  let timer: NodeJS.Timeout | undefined;
  let atFrameEnd = true;
  const stop = () => clearTimeout(timer);
  const arm = (controller: TransformStreamDefaultController<Uint8Array>) => {
    stop();
    timer = setTimeout(() => {
      if (!atFrameEnd) return arm(controller);
      try {
        controller.enqueue(HEARTBEAT);
        arm(controller);
      } catch {
        // The client went away: the readable side is closed and nothing more is written.
        stop();
      }
    }, intervalMs);
  };
  return new TransformStream({
    start: arm,
    transform(chunk, controller) {
      controller.enqueue(chunk);
      atFrameEnd = endsFrame(chunk);
      arm(controller);
    },
    flush: stop,
  });
}

/** Adds heartbeats to every `text/event-stream` response below it; `intervalMs` 0 adds none. */
export function sseHeartbeats(intervalMs: number): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const body = c.res.body;
    const type = c.res.headers.get('content-type') ?? '';
    if (intervalMs <= 0 || !body || !type.startsWith('text/event-stream')) return;
    const { status, statusText, headers } = c.res;
    c.res = new Response(body.pipeThrough(heartbeatStream(intervalMs)), {
      status,
      statusText,
      headers,
    });
  };
}
