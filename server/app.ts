import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { allowedHosts, publicConfig, type Config } from './config';
import { createConsoleAuthorizer } from './console/auth/authorize-console-request';
import { openConsoleAuth, type ConsoleAuth } from './console/auth/console-auth';
import { csrfGuard } from './console/auth/csrf-guard';
import { createConsoleProxy, type ProxyTarget } from './console/console-proxy';
import { compressResponses } from './http/compress';
import { DEPLOYMENT_CONSOLE_ROUTES, USAGE_CONSOLE_ROUTES } from './console/console-routes';
import { DEPLOYMENT_BODY_LIMIT_BYTES, limitBody } from './http/body-limit';
import { answerUnhandledError, outageOf, RETRY_AFTER_SECONDS } from './http/dependency-outage';
import { browserGuard } from './http/browser-guard';
import { drainUnreadBody } from './http/drain-body';
import { jsonError } from './http/json-error';
import { httpMetrics } from './metrics/http-metrics';
import type { Metrics } from './metrics/metrics';
import { createMetricsRoute } from './metrics/metrics-route';
import { requestLog, type LogSink } from './http/request-log';
import { securityHeaders } from './http/security-headers';
import type { Service } from './http/service';

interface AppOptions {
  config: Config;
  services: Service[];
  /** Folder of the built SPA; when absent (tests of the API alone) only the APIs are served. */
  staticDir?: string;
  /** Where request log lines go (stdout by default); LOG_LEVEL decides which are written. */
  logSink?: LogSink;
  /** Request metrics, and `/metrics` itself unless METRICS_PORT serves it apart. */
  metrics?: Metrics;
  /**
   * How the console signs people in (`consoleAuthFromConfig`); required when CONSOLE_AUTH signs
   * anyone in. Unset: the console acts with the server's keys.
   */
  consoleAuth?: ConsoleAuth;
}

/** Path prefixes that belong to APIs: unknown paths below them get JSON 404s, never the SPA. */
const API_PREFIXES = [
  '/api/',
  '/deployment/',
  '/healthz',
  '/metrics',
  '/_console/',
  '/runs',
  '/info',
];
/** A missing file under these answers 404: HTML in place of a script only hides the problem. */
const ASSET_PREFIXES = ['/assets/'];

export function createApp({
  config,
  services,
  staticDir,
  logSink,
  metrics,
  consoleAuth = openConsoleAuth(),
}: AppOptions) {
  if ((config.CONSOLE_AUTH ?? 'none') !== consoleAuth.mode) {
    throw new Error(`CONSOLE_AUTH=${config.CONSOLE_AUTH} needs its sign-in (consoleAuth).`);
  }
  const app = new Hono();
  // First in, last out: it sees the request after every answer, the refusals in front included.
  app.use('*', drainUnreadBody());
  app.use('*', requestLog(config.LOG_LEVEL, logSink));
  if (metrics) app.use('*', httpMetrics(metrics));
  app.use('*', securityHeaders());
  // Wraps every later response: assets, index.html, the JSON and CSV APIs.
  app.use('*', compressResponses());
  // The console acts with the server's keys: only this server's own pages may drive it.
  app.use('/_console/*', browserGuard({ allowedHosts: allowedHosts(config) }));
  app.use('/_console/*', limitBody(DEPLOYMENT_BODY_LIMIT_BYTES));
  app.use('/_console/*', csrfGuard());
  // The embedded deployment asks for no key: only the pages its CORS policy names (LangGraph
  // Studio by default) may call it, and only under a Host this server answers to.
  const deployment = services.find((service) => service.name === 'deployment');
  app.use(
    '/deployment/*',
    browserGuard({ allowedHosts: allowedHosts(config), cors: deployment?.cors }),
  );

  app.get('/healthz', async (c) => {
    const checks = await Promise.all(services.map((service) => probeHealth(service)));
    const down = checks.flatMap((check) => ('down' in check ? [check.down] : []));
    if (down.length > 0) {
      // A load balancer stops sending requests here until the dependency is back.
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json({ status: 'unavailable', dependencies: Object.fromEntries(down) }, 503);
    }
    const healthy = checks.flatMap((check) => ('fields' in check ? [check.fields] : []));
    return c.json({ status: 'ok', services: Object.fromEntries(healthy) });
  });

  app.get('/_console/config', (c) => c.json(publicConfig(config)));
  app.route('/_console/auth', consoleAuth.routes);
  if (metrics && config.METRICS_PORT === undefined) app.route('/', createMetricsRoute(metrics));

  for (const service of services) {
    app.route(service.basePath, service.app);
    if (service.rootApp) app.route('/', service.rootApp);
  }
  mountConsoleProxies(app, config, services, consoleAuth);

  if (staticDir) {
    const root = path.relative(process.cwd(), staticDir) || '.';
    app.use(
      '/assets/*',
      serveStatic({
        root,
        // `npm run build` writes .br/.gz beside each asset (scripts/precompress-dist.ts).
        precompressed: true,
        onFound: (_path, c) => {
          // Vite fingerprints everything under /assets, so it can be cached forever.
          c.header('Cache-Control', 'public, max-age=31536000, immutable');
        },
      }),
    );
    // The build manifest (dist/.vite/) is for the bundle check, not for browsers.
    app.all('/.vite/*', (c) => jsonError(c, 404, 'Not Found'));
    app.use('/*', serveStatic({ root }));
    app.get('*', async (c, next) => {
      const { path: requestPath } = c.req;
      if ([...API_PREFIXES, ...ASSET_PREFIXES].some((prefix) => requestPath.startsWith(prefix))) {
        return next();
      }
      // Read on each request (the OS caches it): a rebuilt SPA is served without a restart.
      const indexHtml = await readFile(path.join(staticDir, 'index.html'), 'utf8');
      c.header('Cache-Control', 'no-cache');
      return c.html(indexHtml);
    });
  }

  app.notFound((c) => jsonError(c, 404, 'Not Found'));
  app.onError((error, c) => answerUnhandledError(c, error, 'server'));

  return app;
}

/**
 * `/_console/usage` and `/_console/deployment`: what the SPA calls by default. They reach the
 * configured real service (with the server's key) or the embedded one in-process.
 */
function mountConsoleProxies(
  app: Hono,
  config: Config,
  services: Service[],
  consoleAuth: ConsoleAuth,
) {
  const embedded = (name: string): ProxyTarget | undefined => {
    const service = services.find((candidate) => candidate.name === name);
    return (
      service && {
        kind: 'embedded',
        fetch: (request, caller) => service.app.fetch(request, { proxiedCaller: caller }),
      }
    );
  };

  const usageTarget: ProxyTarget | undefined = config.LANGSMITH_ENDPOINT
    ? { kind: 'remote', baseUrl: `${config.LANGSMITH_ENDPOINT.replace(/\/+$/, '')}/api/v1` }
    : embedded('usage');
  if (usageTarget) {
    const mountPath = '/_console/usage';
    const serverApiKey = config.LANGSMITH_ENDPOINT
      ? config.LANGSMITH_API_KEY
      : config.USAGE_CONSOLE_API_KEY;
    app.route(
      mountPath,
      createConsoleProxy({
        mountPath,
        target: usageTarget,
        routes: USAGE_CONSOLE_ROUTES,
        serverApiKey,
        // A signed-in user reads and changes usage with their own key.
        authorize: createConsoleAuthorizer(consoleAuth, {
          forUser: (userKey) => userKey,
          server: serverApiKey,
          namesActor: true,
        }),
      }),
    );
  }

  const deploymentTarget: ProxyTarget | undefined = config.LANGGRAPH_DEPLOYMENT_URL
    ? { kind: 'remote', baseUrl: config.LANGGRAPH_DEPLOYMENT_URL }
    : embedded('deployment');
  if (deploymentTarget) {
    const mountPath = '/_console/deployment';
    // The embedded deployment in langsmith mode takes usage keys: a signed-in user's own.
    const takesUsageKeys =
      !config.LANGGRAPH_DEPLOYMENT_URL && config.LANGGRAPH_AUTH_TYPE === 'langsmith';
    // In langsmith mode the embedded deployment takes the usage service's keys: the console's.
    const deploymentKey = takesUsageKeys
      ? (config.LANGGRAPH_API_KEY ?? config.USAGE_CONSOLE_API_KEY)
      : config.LANGGRAPH_API_KEY;
    app.route(
      mountPath,
      createConsoleProxy({
        mountPath,
        target: deploymentTarget,
        routes: DEPLOYMENT_CONSOLE_ROUTES,
        serverApiKey: deploymentKey,
        trustProxy: config.CONSOLE_TRUST_PROXY,
        authorize: createConsoleAuthorizer(consoleAuth, {
          forUser: (userKey) => (takesUsageKeys ? userKey : config.LANGGRAPH_API_KEY),
          server: deploymentKey,
          namesActor: false,
        }),
        areaAction: 'playground:run',
      }),
    );
  }
}

/** A health probe answers within this, or its service counts as down. */
const HEALTH_PROBE_MS = 2_000;

/** One service's `/healthz` fields, or the dependency it cannot reach, within the bound. */
async function probeHealth(
  service: Service,
): Promise<{ fields: [string, Record<string, unknown>] } | { down: [string, string] }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${HEALTH_PROBE_MS} ms`)),
      HEALTH_PROBE_MS,
    );
  });
  try {
    const fields = await Promise.race([service.health?.() ?? Promise.resolve({}), timeout]);
    return { fields: [service.name, fields] };
  } catch (error) {
    const outage = outageOf(error);
    const reason = error instanceof Error ? error.message : String(error);
    return { down: [outage?.dependency ?? service.name, `down: ${outage?.reason ?? reason}`] };
  } finally {
    clearTimeout(timer);
  }
}
