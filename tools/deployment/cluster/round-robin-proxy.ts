import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** An upstream answer's status line and headers, as raw HTTP/1.1 text. */
const headOf = (answer: http.IncomingMessage) => {
  const lines = [`HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}`];
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
    lines.push(`${answer.rawHeaders[i] ?? ''}: ${answer.rawHeaders[i + 1] ?? ''}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
};

/**
 * A load balancer at its plainest: each request goes to the next of `targets` in turn (no
 * stickiness, as the Agent Server allows), bodies streamed both ways (SSE included), WebSocket
 * upgrades passed through as a byte pipe to the replica whose turn it is. For tests
 * and the conformance run over several replicas; `targets` are base URLs (`http://host:port/x`)
 * and a request's path is appended to the target's.
 */
export async function startRoundRobinProxy(targets: string[], port = 0) {
  const bases = targets.map((target) => new URL(target));
  let turn = 0;
  /** The request `request` becomes at the next replica in turn. */
  const forward = (request: http.IncomingMessage) => {
    const base = bases[turn % bases.length] as URL;
    turn += 1;
    return {
      hostname: base.hostname,
      port: base.port,
      method: request.method,
      path: `${base.pathname.replace(/\/$/, '')}${request.url ?? '/'}`,
      headers: { ...request.headers, host: base.host },
    };
  };
  const server = http.createServer((request, response) => {
    const upstream = http.request(forward(request), (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`Proxy: ${error.message}`);
    });
    // A client that leaves (a dropped stream) drops its upstream request too.
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
  });
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const upstream = http.request(forward(request));
    upstream.on('upgrade', (answer, upstreamSocket: Socket, upstreamHead: Buffer) => {
      socket.write(headOf(answer));
      if (upstreamHead.length > 0) socket.write(upstreamHead);
      if (head.length > 0) upstreamSocket.write(head);
      upstreamSocket.pipe(socket).pipe(upstreamSocket);
      const end = () => {
        socket.destroy();
        upstreamSocket.destroy();
      };
      for (const side of [socket, upstreamSocket]) side.on('close', end).on('error', end);
    });
    // Refused (403, 404, 426): the answer goes back as it came, and the socket closes.
    upstream.on('response', (answer) => {
      socket.end(headOf(answer));
      answer.resume();
    });
    upstream.on('error', () => socket.destroy());
    upstream.end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
