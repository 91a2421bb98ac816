import { serve, type ServerType } from '@hono/node-server';
import type { Config } from '../config';
import type { Metrics } from './metrics';
import { createMetricsRoute } from './metrics-route';

/**
 * With METRICS_PORT set, `/metrics` listens there on HOST (a port a scraper may reach while the
 * console's stays private); otherwise the app serves it and this starts nothing.
 */
export function serveMetricsApart(
  config: Pick<Config, 'HOST' | 'METRICS_PORT'>,
  metrics: Metrics | undefined,
): ServerType | undefined {
  if (!metrics || config.METRICS_PORT === undefined) return undefined;
  const server = serve({
    fetch: createMetricsRoute(metrics).fetch,
    hostname: config.HOST,
    port: config.METRICS_PORT,
  });
  server.on('error', (error) => {
    console.error(
      `Cannot serve /metrics on ${config.HOST}:${config.METRICS_PORT}: ${error.message}`,
    );
    process.exit(1);
  });
  return server;
}
