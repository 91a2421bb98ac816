import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { createDeploymentService } from './deployment/deployment-service';
import { tracingTargetFromConfig } from './deployment/runs/run-tracing';
import { shutDown } from './http/graceful-shutdown';
import type { Service } from './http/service';
import { createUsageService } from './usage/usage-service';

const staticDir = fileURLToPath(new URL('../dist', import.meta.url));
/** In-flight requests get this long after a stop signal: the whole stop stays under 2 s. */
const SHUTDOWN_GRACE_MS = 1_200;

async function main() {
  loadDotEnv();
  const config = loadConfig();
  await mkdir(config.DATA_DIR, { recursive: true });

  // The server's own URL, known once it listens: the embedded deployment traces to it over HTTP.
  let selfUrl: string | undefined;
  const tracingTarget = tracingTargetFromConfig(config, () => selfUrl);
  const services: Service[] = [];
  const closeServices = async () => {
    await Promise.allSettled(services.map((service) => service.close()));
  };
  try {
    services.push(await createUsageService(config));
    services.push(await createDeploymentService(config, { tracingTarget }));
  } catch (error) {
    await closeServices();
    throw error;
  }

  const app = createApp({ config, services, staticDir });
  const server = serve({ fetch: app.fetch, hostname: config.HOST, port: config.PORT }, (info) => {
    const host = info.address.includes(':') ? `[${info.address}]` : info.address;
    selfUrl = `http://${host}:${info.port}`;
    console.log(`Usage console ready: http://${host}:${info.port}/`);
    console.log(`Data directory: ${config.DATA_DIR}`);
  });
  server.on('error', (error) => {
    console.error(`Cannot listen on ${config.HOST}:${config.PORT}: ${error.message}`);
    void closeServices().then(() => process.exit(1));
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: draining runs and requests, then closing databases.`);
    void shutDown({ server, services, graceMs: SHUTDOWN_GRACE_MS, log: console.error }).then(() => {
      console.log('Stopped.');
      process.exit(0);
    });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Failed to start:', error);
  }
  process.exit(1);
});
