import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import fc from 'fast-check';
import { createApp } from '@server/app';
import { numberArg, parseCliArgs, runCli } from '@server/cli/cli-args';
import { loadConfig } from '@server/config';
import { createDeploymentService } from '@server/deployment/deployment-service';
import { buildDimensions } from '@server/usage/seed/build-dimensions';
import { testProfile } from '@server/usage/seed/seed-profiles';
import { createUsageService } from '@server/usage/usage-service';
import { fuzzRequest, type FuzzTargets } from './fuzz-requests';

const USAGE = `Usage: npm run fuzz -- [--requests 10000] [--seed 1] [--concurrency 16]
Starts the whole app (usage API seeded with the small test dataset, deployment API, console
proxy) on a free port in a temporary DATA_DIR and sends --requests fuzzed requests over HTTP:
random methods, paths near the real ones, query strings, headers and bodies. Prints the status
counts; exit 1 if any answer is 5xx (each listed), 2 on bad arguments.`;

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '16' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const total = numberArg('requests', values.requests, 1);
  const seed = numberArg('seed', values.seed, 0);
  const concurrency = numberArg('concurrency', values.concurrency, 1);

  const dataDir = await mkdtemp(path.join(tmpdir(), 'usage-console-fuzz-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_MODEL_STEP_MS: '0' });
  const usage = await createUsageService(config, { seedProfile: testProfile(), announce: false });
  const deployment = await createDeploymentService(config);
  const app = createApp({ config, services: [usage, deployment] });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const targets: FuzzTargets = {
    workspaceIds: buildDimensions(testProfile()).workspaces.map((ws) => ws.id),
    threadIds: [],
  };
  for (let i = 0; i < 5; i += 1) {
    const response = await fetch(`${baseUrl}/deployment/threads`, { method: 'POST' });
    targets.threadIds.push(((await response.json()) as { thread_id: string }).thread_id);
  }

  const requests = fc.sample(fuzzRequest(targets), { numRuns: total, seed });
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++];
      if (!request) break;
      let status: number;
      try {
        const response = await fetch(`${baseUrl}${request.path}`, {
          method: request.method,
          headers: { host: new URL(baseUrl).host, ...request.headers },
          body: request.body ?? null,
          signal: AbortSignal.timeout(30_000),
        });
        // An event stream may stay open (protocol v2's never ends by itself): its status is enough.
        if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
          await response.body?.cancel();
        } else {
          await response.arrayBuffer();
        }
        status = response.status;
      } catch (error) {
        status = 0;
        failures.push(`no answer: ${request.method} ${request.path}: ${String(error)}`);
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status >= 500) {
        failures.push(`${status}: ${request.method} ${request.path} ${request.body ?? ''}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.allSettled([usage.close(), deployment.close()]);
    await rm(dataDir, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  const counts = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
  const fivexx = [...statuses].filter(([s]) => s >= 500 || s === 0).reduce((n, [, c]) => n + c, 0);
  console.log(`${requests.length} fuzzed requests (seed ${seed}) in ${seconds.toFixed(1)} s`);
  console.log(`Statuses: ${counts.join(', ')}`);
  console.log(`5xx or no answer: ${fivexx}`);
  failures.slice(0, 20).forEach((failure) => console.log(`  ${failure.slice(0, 300)}`));
  return fivexx === 0 ? 0 : 1;
}

runCli(USAGE, main);
