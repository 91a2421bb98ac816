import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { DEPLOYMENT_BODY_LIMIT_BYTES } from '@server/http/body-limit';

/**
 * What a route sees of a WebSocket upgrade request (in Hono's `c.env`): `accept` completes the
 * handshake; `onClosed` hears the connection's end, whether the handshake completed or failed.
 * Absent on ordinary requests.
 */
export interface UpgradeEnv {
  upgrade?: {
    accept: (onSocket: (socket: WebSocket) => void) => void;
    onClosed: (listener: () => void) => void;
  };
  /** The request as node-server binds it, so `getConnInfo` reads the peer of an upgrade too. */
  incoming?: IncomingMessage;
}

/** The node server's `upgrade` event, as `http.Server` declares it. */
interface UpgradingServer {
  on(
    event: 'upgrade',
    listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
  ): unknown;
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  Object.entries(request.headers).forEach(([name, value]) => {
    [value ?? []].flat().forEach((item) => headers.append(name, item));
  });
  return headers;
}

/** Answers a refused upgrade with the app's HTTP response (status, JSON detail), then closes. */
async function refuse(socket: Duplex, response: Response) {
  const body = response.status === 200 ? '' : await response.text();
  const status = response.status === 200 ? 426 : response.status;
  const type = response.headers.get('content-type') ?? 'application/json';
  // A refusal over the stream caps says when to come back.
  const retryAfter = response.headers.get('retry-after');
  socket.end(
    `HTTP/1.1 ${status} ${response.statusText || 'Refused'}\r\ncontent-type: ${type}\r\n` +
      (retryAfter ? `retry-after: ${retryAfter}\r\n` : '') +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Routes WebSocket upgrades through the app like any request: its middleware (origin and host
 * checks, logging) runs, and a route that takes WebSockets calls `c.env.upgrade.accept`. A
 * request no route accepts gets the app's answer (403, 404, ...) and the socket is closed.
 */
export function serveWebSocketUpgrades(
  server: UpgradingServer,
  fetch: (request: Request, env: UpgradeEnv) => Response | Promise<Response>,
): void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: DEPLOYMENT_BODY_LIMIT_BYTES });
  server.on('upgrade', (request, socket, head) => {
    let accepted = false;
    const env: UpgradeEnv = {
      incoming: request,
      upgrade: {
        accept(onSocket) {
          accepted = true;
          sockets.handleUpgrade(request, socket, head, onSocket);
        },
        onClosed(listener) {
          if (socket.destroyed) listener();
          else socket.once('close', listener);
        },
      },
    };
    const url = `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`;
    const answer = Promise.resolve().then(() =>
      fetch(new Request(url, { method: request.method, headers: headersOf(request) }), env),
    );
    answer
      .then((response) => (accepted ? undefined : refuse(socket, response)))
      .catch(() => socket.destroy());
  });
}
