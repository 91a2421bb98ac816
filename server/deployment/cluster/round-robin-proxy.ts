import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer at its plainest: each request goes to the next of `targets` in turn (no
 * stickiness, as the Agent Server allows), bodies streamed both ways (SSE included). For tests
 * and the conformance run over several replicas; `targets` are base URLs (`http://host:port/x`)
 * and a request's path is appended to the target's.
 */
export async function startRoundRobinProxy(targets: string[], port = 0) {
  const bases = targets.map((target) => new URL(target));
  let turn = 0;
  const server = http.createServer((request, response) => {
    const base = bases[turn % bases.length] as URL;
    turn += 1;
    const upstream = http.request(
      {
        hostname: base.hostname,
        port: base.port,
        method: request.method,
        path: `${base.pathname.replace(/\/$/, '')}${request.url ?? '/'}`,
        headers: { ...request.headers, host: base.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`Proxy: ${error.message}`);
    });
    // A client that leaves (a dropped stream) drops its upstream request too.
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
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
