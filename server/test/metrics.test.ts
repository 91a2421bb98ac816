import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { createDeploymentService } from '../deployment/deployment-service';
import { NYC, SF, userInput, waitForMessages } from '../deployment/test/test-deployment';
import { createMetrics } from '../metrics/metrics';
import { testProfile } from '../usage/seed/seed-profiles';
import { limitStatus, putLimit } from '../usage/test/limit-helpers';
import { ADMIN, TEST_WORKSPACE_IDS } from '../usage/test/test-server';
import { createUsageService } from '../usage/usage-service';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  type ServerProcess,
} from './server-process';
import { parsePrometheus, valueOf } from './prometheus-text';

/** Usage + deployment as main.ts composes them, with one metrics registry. */
async function startConsole() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'metrics-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_MODEL_STEP_MS: '100' });
  const metrics = createMetrics();
  const usage = await createUsageService(config, {
    seedProfile: testProfile(),
    announce: false,
    metrics,
  });
  const deployment = await createDeploymentService(config, { metrics });
  const server = serve({
    fetch: createApp({ config, services: [usage, deployment], metrics }).fetch,
    hostname: '127.0.0.1',
    port: 0,
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    client: new Client({ apiUrl: `${baseUrl}/deployment`, callerOptions: { maxRetries: 0 } }),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deployment.close();
      await usage.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe('GET /metrics', () => {
  let console_: Awaited<ReturnType<typeof startConsole>>;
  const scrape = async () => {
    const response = await fetch(`${console_.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };
  const samples = async () => parsePrometheus(await scrape());

  beforeAll(async () => {
    console_ = await startConsole();
  }, 60_000);
  afterAll(() => console_.close());

  it('counts requests by route pattern, method and status, never by raw path', async () => {
    const { client, baseUrl } = console_;
    const route = { route: '/deployment/threads/:threadId', method: 'GET' };
    const before = await samples();
    const { thread_id } = await client.threads.create();
    for (let i = 0; i < 3; i += 1) await client.threads.get(thread_id);
    const missing = randomUUID();
    await fetch(`${baseUrl}/deployment/threads/${missing}`);
    const unknown = `${baseUrl}/deployment/no-such-area/${missing}`;
    expect((await fetch(unknown)).status).toBe(404);
    const text = await scrape();
    const after = parsePrometheus(text);
    const count = 'http_request_duration_seconds_count';
    expect(valueOf(after, count, { ...route, status: '200' })).toBe(
      valueOf(before, count, { ...route, status: '200' }) + 3,
    );
    expect(valueOf(after, count, { ...route, status: '404' })).toBe(
      valueOf(before, count, { ...route, status: '404' }) + 1,
    );
    expect(text).not.toContain(thread_id);
    expect(text).not.toContain(missing);
  });

  it('counts runs by status and strategy, rollbacks, and the stored runs by status', async () => {
    const { client } = console_;
    const before = await samples();
    const { thread_id } = await client.threads.create();
    await client.runs.create(thread_id, 'agent', { input: userInput(SF) });
    await waitForMessages(client, thread_id, 2);
    const second = await client.runs.create(thread_id, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'rollback',
    });
    await client.runs.join(thread_id, second.run_id);
    const after = await samples();
    const finished = 'lg_api_runs_finished_total';
    expect(valueOf(after, finished, { status: 'success', strategy: 'rollback' })).toBe(
      valueOf(before, finished, { status: 'success', strategy: 'rollback' }) + 1,
    );
    expect(valueOf(after, 'lg_api_runs_rolled_back_total')).toBe(
      valueOf(before, 'lg_api_runs_rolled_back_total') + 1,
    );
    expect(valueOf(after, 'lg_api_runs', { status: 'success' })).toBe(
      valueOf(before, 'lg_api_runs', { status: 'success' }) + 1,
    );
    expect(valueOf(after, 'lg_api_num_running_runs')).toBe(0);
    expect(valueOf(after, 'lg_api_runs_executing')).toBe(0);
  });

  it('shows a run pending and running while it is', async () => {
    const { client } = console_;
    const { thread_id } = await client.threads.create();
    const running = await client.runs.create(thread_id, 'agent', { input: userInput(SF) });
    await waitForMessages(client, thread_id, 1);
    const queued = await client.runs.create(thread_id, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'enqueue',
    });
    const during = await samples();
    expect(valueOf(during, 'lg_api_num_running_runs')).toBe(1);
    expect(valueOf(during, 'lg_api_num_pending_runs')).toBe(1);
    expect(valueOf(during, 'lg_api_runs_executing')).toBe(1);
    await client.runs.join(thread_id, queued.run_id);
    expect((await client.runs.get(thread_id, running.run_id)).status).toBe('success');
  });

  it('counts the SSE streams open while a client listens', async () => {
    const { client, baseUrl } = console_;
    const { thread_id } = await client.threads.create();
    const route = { route: '/deployment/threads/:threadId/stream' };
    const leave = new AbortController();
    const response = await fetch(`${baseUrl}/deployment/threads/${thread_id}/stream`, {
      signal: leave.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(valueOf(await samples(), 'http_sse_streams_open', route)).toBe(1);
    leave.abort();
    await expect.poll(async () => valueOf(await samples(), 'http_sse_streams_open', route)).toBe(0);
  });

  it('counts ingestion batches, traces billed and refusals by limit type', async () => {
    const { baseUrl } = console_;
    const workspace = TEST_WORKSPACE_IDS[0] ?? '';
    const before = await samples();
    const used = (await limitStatus(baseUrl, workspace)).used;
    await putLimit(baseUrl, workspace, used + 2);
    const post = Array.from({ length: 5 }, () => {
      const id = randomUUID();
      return { id, trace_id: id, name: 'root', run_type: 'chain', session_name: 'metrics' };
    });
    const response = await fetch(`${baseUrl}/api/v1/runs/batch`, {
      method: 'POST',
      headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
      body: JSON.stringify({ post }),
    });
    expect(response.status).toBe(429);
    const text = await scrape();
    const after = parsePrometheus(text);
    expect(valueOf(after, 'usage_traces_billed_total')).toBe(
      valueOf(before, 'usage_traces_billed_total') + 2,
    );
    const refused = { limit_type: 'monthly_traces' };
    expect(valueOf(after, 'usage_trace_refusals_total', refused)).toBe(
      valueOf(before, 'usage_trace_refusals_total', refused) + 3,
    );
    expect(valueOf(after, 'usage_ingest_batches_total', { outcome: 'refused' })).toBe(
      valueOf(before, 'usage_ingest_batches_total', { outcome: 'refused' }) + 1,
    );
    expect(text).not.toContain(workspace);
    expect(text).not.toContain(ADMIN['x-api-key']);
  });

  it('times usage queries by kind and group_by, and shows the one writer`s queue', async () => {
    const { baseUrl } = console_;
    const workspace = TEST_WORKSPACE_IDS[0] ?? '';
    const count = 'usage_query_duration_seconds_count';
    const before = await samples();
    const query = async (kind: string, groupBy: string) => {
      const search = new URLSearchParams({
        start_time: new Date(Date.now() - 86_400_000).toISOString(),
        end_time: new Date().toISOString(),
        group_by: groupBy,
        kind,
        workspace_ids: workspace,
      });
      const response = await fetch(
        `${baseUrl}/api/v1/orgs/current/billing/granular-usage?${search}`,
        { headers: ADMIN },
      );
      expect(response.status).toBe(200);
    };
    await query('traces', 'project');
    await query('traces', 'project');
    await query('langsmith_deployments', 'workspace');
    const after = await samples();
    const moved = (labels: Record<string, string>) =>
      valueOf(after, count, labels) - valueOf(before, count, labels);
    expect(moved({ kind: 'traces', group_by: 'project' })).toBe(2);
    expect(moved({ kind: 'langsmith_deployments', group_by: 'workspace' })).toBe(1);
    expect(moved({ kind: 'traces', group_by: 'user' })).toBe(0);
    // DuckDB has one writer connection, opened by the first write (the ingestion test's).
    const writer = (state: string) =>
      valueOf(after, 'db_client_connections', { client: 'duckdb_writer', state });
    expect([writer('total'), writer('idle'), writer('waiting')]).toEqual([1, 1, 0]);
  });
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('npm start: where /metrics is served', () => {
  const started: ServerProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startServerProcess(env);
    started.push(server);
    return readyUrl(server);
  };
  afterAll(async () => {
    started.forEach((server) => server.child.kill('SIGKILL'));
    await Promise.all(started.map((server) => server.exited));
    await removeServerDataDirs();
  });

  it('METRICS_PORT moves it to its own port; METRICS_ENABLED=false turns it off', async () => {
    const port = await freePort();
    const [apart, off] = await Promise.all([
      start({ METRICS_PORT: String(port) }),
      start({ METRICS_ENABLED: 'false' }),
    ]);
    expect((await fetch(`${apart}metrics`)).status).toBe(404);
    const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('# TYPE http_request_duration_seconds histogram');
    expect((await fetch(`${off}metrics`)).status).toBe(404);
    expect((await fetch(`${off}healthz`)).status).toBe(200);
  }, 60_000);
});
