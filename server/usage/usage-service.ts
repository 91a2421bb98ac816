import { Hono } from 'hono';
import type { Config } from '../config';
import { jsonError } from '../http/json-error';
import type { Service } from '../http/service';

/** Placeholder until the usage API lands (issue 3): answers every request with 503. */
export async function createUsageService(_config: Config): Promise<Service> {
  const app = new Hono();
  app.all('*', (c) => jsonError(c, 503, 'The usage API is not built yet.'));
  return { name: 'usage', basePath: '/api/v1', app, close: async () => {} };
}
