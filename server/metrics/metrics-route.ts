import { Hono } from 'hono';
import type { Metrics } from './metrics';

/** `GET /metrics`: the registry in Prometheus text format. */
export function createMetricsRoute(metrics: Pick<Metrics, 'registry'>): Hono {
  const app = new Hono();
  app.get('/metrics', async (c) => {
    const { registry } = metrics;
    c.header('Content-Type', registry.contentType);
    c.header('Cache-Control', 'no-store');
    return c.body(await registry.metrics());
  });
  return app;
}
