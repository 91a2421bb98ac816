import { Hono } from 'hono';
import type { Config } from '../config';
import { jsonError } from '../http/json-error';
import type { Service } from '../http/service';

/** Placeholder until the deployment API lands (issue 5): answers every request with 503. */
export async function createDeploymentService(_config: Config): Promise<Service> {
  const app = new Hono();
  app.all('*', (c) => jsonError(c, 503, 'The deployment API is not built yet.'));
  return { name: 'deployment', basePath: '/deployment', app, close: async () => {} };
}
