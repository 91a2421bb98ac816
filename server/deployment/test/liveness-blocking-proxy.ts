import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of Postgres that can cut and refuse the connections whose startup message
 * names `applicationName`: a replica's liveness session, gone while its other connections go on
 * (as a network fault on that one session would).
 */
export async function startLivenessBlockingProxy(target: string, applicationName: string) {
  const targetUrl = new URL(target);
  const open = new Set<Socket>();
  /** The client sockets of the liveness sessions passed through, cut by `refuse(true)`. */
  const liveness = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.once('data', (first) => {
      // The startup message is plain text (no TLS to a local server): its parameters name it.
      if (refusing && first.includes(applicationName)) {
        client.destroy();
        return;
      }
      if (first.includes(applicationName)) {
        liveness.add(client);
        client.on('close', () => liveness.delete(client));
      }
      const upstream = connect(Number(targetUrl.port || 5432), targetUrl.hostname);
      open.add(upstream);
      upstream.write(first);
      client.pipe(upstream);
      upstream.pipe(client);
      const drop = () => {
        open.delete(upstream);
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) socket.on('close', drop).on('error', drop);
    });
    client.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** `target` with its host and port this proxy's. */
    via(connectionString: string) {
      const url = new URL(connectionString);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    /** From now on refuses (`true`: and cuts the open ones) or lets through liveness sessions. */
    refuse(on: boolean) {
      refusing = on;
      if (on) liveness.forEach((socket) => socket.destroy());
    },
    close: () => {
      open.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
