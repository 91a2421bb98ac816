import type { ServerType } from '@hono/node-server';

/**
 * How long an idle keep-alive connection stays open. Node's 5 s default is shorter than the
 * idle timeouts of load balancers (60 s) and no longer than HTTP clients' own (undici: 4 s, checked
 * on a coarse timer): a client then sends its next request on a connection the server is closing
 * at that moment and gets "other side closed" with no answer. The server must be the last to let go.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function keepConnectionsAlive(server: ServerType): void {
  if (!('keepAliveTimeout' in server)) return;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node requires the headers timeout to be longer than the keep-alive one.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
