import type { ServerType } from '@hono/node-server';
import type { Service } from './service';

interface ShutdownOptions {
  server: ServerType;
  services: readonly Service[];
  /** How long in-flight requests may take once the services are drained. */
  graceMs: number;
  log: (message: string) => void;
}

/**
 * Stops the process the way a process manager expects (SIGTERM, SIGINT): stop accepting
 * connections, drain the services (no run starts any more, joins return), give in-flight
 * requests `graceMs`, cut what is left, close every database, and only then resolve. It never
 * gives up with the databases open: a slow request is cut, not waited for.
 */
export async function shutDown({ server, services, graceMs, log }: ShutdownOptions) {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive sockets would otherwise hold close() open until they time out.
  if ('closeIdleConnections' in server) server.closeIdleConnections();
  await Promise.allSettled(services.map((service) => service.drain?.()));

  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), graceMs);
  });
  const outcome = await Promise.race([closed.then(() => 'closed' as const), graceOver]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    log(`Requests still in flight after ${graceMs} ms; closing their connections.`);
    if ('closeAllConnections' in server) server.closeAllConnections();
  }

  const results = await Promise.allSettled(services.map((service) => service.close()));
  results.forEach((result, index) => {
    if (result.status === 'rejected') {
      log(`Closing ${services[index]?.name ?? 'a service'} failed: ${String(result.reason)}`);
    }
  });
}
