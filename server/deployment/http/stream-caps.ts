import type { Context, MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { jsonError } from '@server/http/json-error';
import { authUserOf } from '../auth/auth-door';
import type { ProxiedEnv } from '@server/http/proxied-caller';
import type { UpgradeEnv } from '../protocol/websocket-upgrade';

export interface StreamCaps {
  /** Streams one client (its authenticated identity, else its address) may hold open. */
  perClient: number;
  /** Streams this process holds open for all clients together. */
  total: number;
}

/** What a refused client waits before trying again: streams end as their runs do. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The requests that answer with a stream: a run's (`/runs/stream`, a join's `/runs/{id}/stream`),
 * a thread's (`/threads/{id}/stream`) and protocol v2's events (`/threads/{id}/stream/events`).
 */
const STREAM_PATH = /\/stream(\/events)?$/;

function clientOf(c: Context): string {
  const user = authUserOf(c);
  if (user.is_authenticated) return `user ${user.identity}`;
  // Through the console's in-process proxy: the browser behind it, not the proxy.
  const proxied = (c.env as ProxiedEnv | undefined)?.proxiedCaller;
  if (proxied) return proxied.client;
  try {
    return `address ${getConnInfo(c).remote.address ?? 'unknown'}`;
  } catch {
    // Not served by node-server (an in-process request): one client for all of them.
    return 'address unknown';
  }
}

/** `body`, calling `release` once when it ends, fails, or its reader cancels it. */
function releasingWhenDone(body: ReadableStream<Uint8Array>, release: () => void) {
  const reader = body.getReader();
  let released = false;
  const once = () => {
    if (released) return;
    released = true;
    release();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          once();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        once();
        controller.error(error);
      }
    },
    cancel(reason) {
      once();
      return reader.cancel(reason);
    },
  });
}

/**
 * When the request is a WebSocket upgrade: its acceptance keeps the slot until the socket closes
 * (`release` then), instead of the route's empty answer giving it back.
 */
function holdForSocket(c: Context, release: () => void): { accepted: boolean } {
  const state = { accepted: false };
  const env = c.env as UpgradeEnv | undefined;
  const upgrade = env?.upgrade;
  if (!upgrade) return state;
  env.upgrade = {
    ...upgrade,
    accept(onSocket) {
      state.accepted = true;
      // The connection's end, not the WebSocket's: a handshake that fails gives the slot back too.
      upgrade.onClosed(release);
      upgrade.accept(onSocket);
    },
  };
  return state;
}

/**
 * Caps the streams held open, per client and in all: a stream never read still holds its run's
 * events and a socket, so a client opening them without end would exhaust the process. A request
 * over a cap is refused before it creates anything: 429 over the client's own cap, 503 over the
 * process's, each a JSON `{detail}` with `Retry-After`. Slots are taken before the route runs
 * and given back when the stream ends (or at once when the answer is not a stream). A protocol v2
 * WebSocket (`GET /threads/{id}/stream/events` upgraded) holds one slot for as long as its socket
 * is open, whatever it subscribes to: its subscriptions share the socket and one reader of the
 * thread's events. Over a cap its upgrade is refused with the same answer.
 */
export function capOpenStreams(caps: StreamCaps): MiddlewareHandler {
  const perClient = new Map<string, number>();
  let total = 0;
  const release = (client: string) => {
    total -= 1;
    const held = (perClient.get(client) ?? 1) - 1;
    if (held > 0) perClient.set(client, held);
    else perClient.delete(client);
  };

  return async (c, next) => {
    if (!STREAM_PATH.test(c.req.path)) return next();
    const client = clientOf(c);
    const held = perClient.get(client) ?? 0;
    if (held >= caps.perClient || total >= caps.total) {
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return held >= caps.perClient
        ? jsonError(
            c,
            429,
            `Too many open streams for this client (${caps.perClient}): close one or retry in ${RETRY_AFTER_SECONDS} s.`,
          )
        : jsonError(
            c,
            503,
            `This server holds its most open streams (${caps.total}); retry in ${RETRY_AFTER_SECONDS} s.`,
          );
    }
    perClient.set(client, held + 1);
    total += 1;
    const socketHeld = holdForSocket(c, () => release(client));
    try {
      await next();
    } catch (error) {
      release(client);
      throw error;
    }
    if (socketHeld.accepted) return;
    const body = c.res.body;
    const type = c.res.headers.get('content-type') ?? '';
    if (!body || !type.startsWith('text/event-stream')) {
      release(client);
      return;
    }
    const { status, statusText, headers } = c.res;
    c.res = new Response(
      releasingWhenDone(body, () => release(client)),
      { status, statusText, headers },
    );
  };
}
