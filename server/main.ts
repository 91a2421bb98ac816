import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { parseCliArgs, USAGE_EXIT_CODE, UsageError } from './lib/cli-args';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { protectedModeVerdict } from './deployment/auth/protected-mode';
import { createDeploymentService } from './deployment/deployment-service';
import { GraphLoadError } from './deployment/graph/langgraph-config';
import { serveWebSocketUpgrades } from './deployment/protocol/websocket-upgrade';
import { tracingTargetFromConfig } from './deployment/runs/run-tracing';
import { meteringTargetFromConfig } from './deployment/metering/run-metering';
import { consoleAuthVerdict } from './console/auth/console-auth-verdict';
import {
  consoleAuthFromConfig,
  type ConsoleAuthStores,
} from './console/auth/console-auth-from-config';
import { shutDown } from './http/graceful-shutdown';
import { keepConnectionsAlive } from './http/keep-alive';
import { createMetrics } from './metrics/metrics';
import { serveMetricsApart } from './metrics/serve-metrics';
import type { Service } from './http/service';
import { BackendUnreachableError, checkBackends } from './startup/check-backends';
import { fleetBillingRefusal } from './startup/fleet-billing';
import { createUsageService } from './usage/usage-service';

const staticDir = fileURLToPath(new URL('../dist', import.meta.url));
/** In-flight requests get this long after a stop signal: the whole stop stays under 2 s. */
const SHUTDOWN_GRACE_MS = 1_200;

const USAGE = `Usage: npm start -- [--graphs path/to/langgraph.json]   (npm run serve: without building)
Serves the console, the usage API and the deployment API; configured by environment variables
and .env (docs/configuration.md). --graphs serves that langgraph.json's graphs (LANGGRAPH_CONFIG).
Exit codes: 1 failed to start, 2 bad arguments.`;

async function main() {
  loadDotEnv();
  // `npm start -- --graphs path/to/langgraph.json` is LANGGRAPH_CONFIG on the command line.
  const { graphs, help } = parseCliArgs(process.argv.slice(2), {
    graphs: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (graphs !== undefined) process.env.LANGGRAPH_CONFIG = graphs;
  const config = loadConfig();
  // Before migrations and the demo dataset: a wrong address fails in seconds, not minutes.
  await checkBackends(config);
  const billingRefusal = fleetBillingRefusal(config);
  if (billingRefusal) throw new ConfigError(billingRefusal);
  const protection = protectedModeVerdict(config);
  if (!protection.start) throw new ConfigError(protection.message);
  if (protection.warning) console.warn(protection.warning);
  const signIn = consoleAuthVerdict(config);
  if (!signIn.start) throw new ConfigError(signIn.message);
  if (signIn.warning) console.warn(signIn.warning);
  await mkdir(config.DATA_DIR, { recursive: true });

  // The server's own URL, known once it listens: the embedded deployment traces to it over HTTP.
  let selfUrl: string | undefined;
  const tracingTarget = tracingTargetFromConfig(config, () => selfUrl);
  const metrics = config.METRICS_ENABLED ? createMetrics() : undefined;
  const services: Service[] = [];
  const closeServices = async () => {
    await Promise.allSettled(services.map((service) => service.close()));
  };
  let consoleStores: ConsoleAuthStores;
  try {
    const usage = await createUsageService(config, { metrics });
    services.push(usage);
    consoleStores = usage.consoleStores;
    services.push(
      await createDeploymentService(config, {
        tracingTarget,
        meteringTarget: meteringTargetFromConfig(config, () => selfUrl),
        usageApiBase: () => selfUrl && `${selfUrl}/api/v1`,
        metrics,
      }),
    );
  } catch (error) {
    await closeServices();
    throw error;
  }

  const consoleAuth = consoleAuthFromConfig(config, consoleStores);
  const app = createApp({ config, services, staticDir, metrics, consoleAuth });
  serveMetricsApart(config, metrics);
  const server = serve({ fetch: app.fetch, hostname: config.HOST, port: config.PORT }, (info) => {
    const host = info.address.includes(':') ? `[${info.address}]` : info.address;
    selfUrl = `http://${host}:${info.port}`;
    console.log(`Usage console ready: http://${host}:${info.port}/`);
    console.log(`Data directory: ${config.DATA_DIR}`);
  });
  keepConnectionsAlive(server);
  // Protocol v2's WebSocket (`/deployment/threads/{id}/stream/events`) goes through the app too.
  serveWebSocketUpgrades(server, (request, env) => app.fetch(request, env));
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
  if (error instanceof UsageError) {
    console.error(`error: ${error.message}\n\n${USAGE}`);
    process.exit(USAGE_EXIT_CODE);
  }
  if (
    error instanceof ConfigError ||
    error instanceof GraphLoadError ||
    error instanceof BackendUnreachableError
  ) {
    console.error(error.message);
  } else {
    console.error('Failed to start:', error);
  }
  process.exit(1);
});
