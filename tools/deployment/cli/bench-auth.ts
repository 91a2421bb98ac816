import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Client } from '@langchain/langgraph-sdk';
import { Hono } from 'hono';
import { removeDataDir, startTestDeployment } from '@server/deployment/test/test-deployment';
import { type FlowCount, flowTimes, percentile, tally, type Verdict } from './double-text';

const KEY = 'bench-key';
const WORKSPACE = '00000000-0000-4000-8000-000000000001';

/** A stand-in LangSmith answering `GET /api/v1/workspaces` for one key, as the usage API does. */
async function startKeyService() {
  const app = new Hono().get('/api/v1/workspaces', (c) =>
    c.req.header('x-api-key') === KEY
      ? c.json([{ id: WORKSPACE, read_only: false }])
      : c.json({ detail: 'Invalid API key.' }, 401),
  );
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/**
 * The rollback flow (model delay 0) with `LANGGRAPH_AUTH_TYPE=noop` and `langsmith`, on fresh
 * deployments taking turns (langsmith, noop, langsmith, noop: the first deployment of a process
 * warms the JIT up for the others), each key checked by a stand-in key service and cached.
 */
export async function measureAuthFlow(flows: FlowCount): Promise<Verdict[]> {
  const keys = await startKeyService();
  const verdicts: Verdict[] = [];
  try {
    console.log(
      `Rollback flow by auth mode, ${flows.iterations} sequential iterations after ${flows.warmUp}:`,
    );
    for (const mode of ['langsmith', 'noop', 'langsmith', 'noop'] as const) {
      const env: Record<string, string> = { LANGGRAPH_AUTH_TYPE: mode };
      if (mode === 'langsmith') env.LANGSMITH_AUTH_ENDPOINT = keys.url;
      const deployment = await startTestDeployment({ stepMs: 0, env });
      try {
        const client = new Client({
          apiUrl: deployment.url,
          apiKey: KEY,
          callerOptions: { maxRetries: 0 },
        });
        const own: Verdict[] = [];
        const times = await flowTimes(client, client, flows, own);
        console.log(`  ${mode.padEnd(9)} ${times}   outcomes: ${tally(own)}`);
        verdicts.push(...own);
      } finally {
        await deployment.stop();
        await removeDataDir(deployment.dataDir);
      }
    }
  } finally {
    keys.close();
  }
  return verdicts;
}

const OWNERS = 100;
const THREADS_PER_OWNER = 100;
const OWNER_AUTH = fileURLToPath(new URL('./bench-owner-auth.mts', import.meta.url));

/**
 * Custom auth with threads owned by their creators: 10,000 threads of 100 owners, created
 * through the API (100 owners at once), then one owner's threads searched (`limit` 10) and
 * counted `searches` times; the store filters by owner inside its query.
 */
export async function measureOwnerSearch(searches: number): Promise<void> {
  const deployment = await startTestDeployment({
    stepMs: 0,
    env: { LANGGRAPH_AUTH: JSON.stringify({ path: `${OWNER_AUTH}:auth` }) },
  });
  const as = (owner: number) =>
    new Client({
      apiUrl: deployment.url,
      defaultHeaders: { Authorization: `Bearer owner-${owner}` },
      callerOptions: { maxRetries: 0 },
    });
  try {
    await Promise.all(
      Array.from({ length: OWNERS }, async (_, owner) => {
        const client = as(owner);
        for (let i = 0; i < THREADS_PER_OWNER; i += 1) await client.threads.create();
      }),
    );
    const client = as(7);
    const times = { search: [] as number[], count: [] as number[] };
    let found = 0;
    let counted = 0;
    for (let i = 0; i < searches; i += 1) {
      let started = performance.now();
      found = (await client.threads.search({ limit: 10 })).length;
      times.search.push(performance.now() - started);
      started = performance.now();
      counted = await client.threads.count();
      times.count.push(performance.now() - started);
    }
    const p50 = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      ).toFixed(1);
    console.log(
      `${OWNERS * THREADS_PER_OWNER} threads of ${OWNERS} owners (custom auth), one owner's:`,
    );
    console.log(`  search (limit 10, ${found} found) p50 ${p50(times.search)} ms`);
    console.log(`  count (${counted}) p50 ${p50(times.count)} ms`);
  } finally {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  }
}
