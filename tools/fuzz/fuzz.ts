import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import fc from 'fast-check';
import { createApp } from '@server/app';
import { numberArg, parseCliArgs, runCli } from '@server/lib/cli-args';
import { loadConfig } from '@server/config';
import { createDeploymentService } from '@server/deployment/deployment-service';
import { keepConnectionsAlive } from '@server/http/keep-alive';
import { buildDimensions } from '@server/usage/seed/build-dimensions';
import { testProfile } from '@server/usage/seed/seed-profiles';
import { createUsageService } from '@server/usage/usage-service';
import { fuzzRequest, type FuzzRequest } from './fuzz-requests';
import { apiOf, createFuzzIds, isGuardRefusal, isRoutingMiss, routesOf } from './fuzz-targets';

const USAGE = `Usage: npm run fuzz -- [--requests 10000] [--seed 1] [--concurrency 16] [--database-uri URI]
       [--redis-uri URI --replicas 2]
Starts the whole app (usage API seeded with the small test dataset, deployment API, console
proxy) on a free port in a temporary DATA_DIR, creates threads, runs, an assistant, a cron and a
store item through the API, then sends fuzzed requests over HTTP to every route the app serves
(their real ids mostly, fuzzed queries, headers and bodies; some near-miss paths) until
--requests of them got past routing. Prints, per API, the requests sent, the share that reached a
handler and the status counts; exit 1 if any answer is 5xx (each listed), 2 on bad arguments.
--database-uri: the deployment API on this Postgres (schema \`deployment\`) instead of SQLite.
--redis-uri with --replicas N: N deployment replicas on that Postgres and Redis, each behind its
own port; requests go to them in turn, as behind a load balancer.`;

/** Requests sampled per round, until enough got past routing. */
const ROUND = 2_000;

interface ApiCounts {
  sent: number;
  /** Past routing: a handler or a check in front of it answered. */
  routed: number;
  /** Of those, answered by a handler (not the browser checks' 403/415). */
  handled: number;
  statuses: Map<number, number>;
}

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '16' },
    'database-uri': { type: 'string' },
    'redis-uri': { type: 'string' },
    replicas: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const total = numberArg('requests', values.requests, 1);
  const seed = numberArg('seed', values.seed, 0);
  const concurrency = numberArg('concurrency', values.concurrency, 1);
  const replicas = numberArg('replicas', values.replicas, 1);

  const dataDir = await mkdtemp(path.join(tmpdir(), 'usage-console-fuzz-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEMO_MODEL_STEP_MS: '0',
    ...(values['database-uri'] && { DATABASE_URI: values['database-uri'] }),
    ...(values['redis-uri'] && { REDIS_URI: values['redis-uri'] }),
  });
  const usage = await createUsageService(config, { seedProfile: testProfile(), announce: false });
  // Replicas share the usage service: only the deployment API runs as a cluster.
  const deployments = await Promise.all(
    Array.from({ length: replicas }, () => createDeploymentService(config)),
  );
  const apps = deployments.map((deployment) =>
    createApp({ config, services: [usage, deployment] }),
  );
  const servers = await Promise.all(
    apps.map(async (app) => {
      const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
      keepConnectionsAlive(server);
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      return server;
    }),
  );
  const baseUrls = servers.map(
    (server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  );
  const baseUrl = baseUrls[0] ?? '';

  const byApi = new Map<string, ApiCounts>();
  const failures: string[] = [];
  let routed = 0;
  let sent = 0;
  const started = performance.now();
  const send = async (request: FuzzRequest) => {
    const target = baseUrls[sent % baseUrls.length] ?? baseUrl;
    let status: number;
    let text = '';
    try {
      const response = await fetch(`${target}${request.path}`, {
        method: request.method,
        headers: { host: new URL(target).host, ...request.headers },
        body: request.body ?? null,
        signal: AbortSignal.timeout(30_000),
      });
      status = response.status;
      // A thread's stream stays open for its next runs: the status is the answer.
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        await response.body?.cancel();
      } else {
        text = await response.text();
      }
    } catch (error) {
      status = 0;
      // undici's "fetch failed" names the socket error only in its cause.
      const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : '';
      failures.push(`no answer: ${request.method} ${request.path}: ${String(error)}${cause}`);
    }
    const counts = byApi.get(apiOf(request.path)) ?? {
      sent: 0,
      routed: 0,
      handled: 0,
      statuses: new Map(),
    };
    byApi.set(apiOf(request.path), counts);
    counts.sent += 1;
    counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1);
    sent += 1;
    if (!isRoutingMiss(status, text)) {
      counts.routed += 1;
      routed += 1;
      if (!isGuardRefusal(status, text)) counts.handled += 1;
    }
    if (status >= 500 || status === 0) {
      failures.push(`${status}: ${request.method} ${request.path} ${request.body ?? ''}`);
    }
  };
  try {
    const ids = await createFuzzIds(
      baseUrl,
      buildDimensions(testProfile()).workspaces.map((ws) => ws.id),
    );
    const arbitrary = fuzzRequest(routesOf(apps[0] ?? createApp({ config, services: [] })), ids);
    for (let round = 0; routed < total && round < 50; round += 1) {
      const requests = fc.sample(arbitrary, { numRuns: ROUND, seed: seed + round });
      let next = 0;
      const worker = async () => {
        while (next < requests.length && routed < total) {
          const request = requests[next++];
          if (request) await send(request);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    }
  } finally {
    await Promise.all(
      servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
    await Promise.allSettled([
      usage.close(),
      ...deployments.map((deployment) => deployment.close()),
    ]);
    await rm(dataDir, { recursive: true, force: true });
  }
  report({ byApi, sent, routed, seed, seconds: (performance.now() - started) / 1000 });
  const bad = failures.length;
  console.log(`5xx or no answer: ${bad}`);
  failures.slice(0, 20).forEach((failure) => console.log(`  ${failure.slice(0, 300)}`));
  return bad === 0 ? 0 : 1;
}

const percent = (part: number, whole: number) =>
  `${((100 * part) / Math.max(whole, 1)).toFixed(1)} %`;

function report(run: {
  byApi: Map<string, ApiCounts>;
  sent: number;
  routed: number;
  seed: number;
  seconds: number;
}) {
  const handled = [...run.byApi.values()].reduce((n, counts) => n + counts.handled, 0);
  console.log(
    `${run.sent} fuzzed requests (seed ${run.seed}) in ${run.seconds.toFixed(1)} s: ${run.routed} got past routing (${percent(run.routed, run.sent)}; the rest a routing 404), ${handled} reached a handler (${percent(handled, run.sent)}; the rest of those refused by the Origin/Host/JSON checks)`,
  );
  for (const [api, counts] of [...run.byApi].sort(([a], [b]) => a.localeCompare(b))) {
    const statuses = [...counts.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    console.log(
      `  ${api}: ${counts.sent} sent, ${counts.routed} past routing (${percent(counts.routed, counts.sent)}), ${counts.handled} to a handler (${percent(counts.handled, counts.sent)}); ${statuses.join(', ')}`,
    );
  }
}

runCli(USAGE, main);
