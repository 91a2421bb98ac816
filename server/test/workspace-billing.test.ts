import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Client } from '@langchain/langgraph-sdk';
import { deploymentUsageResponseSchema } from '@contracts/usage/deployment-usage-schema';
import { workspacesResponseSchema } from '@contracts/usage/usage-schema';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { createDeploymentService } from '../deployment/deployment-service';
import { meteringTargetFromConfig } from '../deployment/metering/run-metering';
import { tracingTargetFromConfig } from '../deployment/runs/run-tracing';
import { SF, userInput } from '../deployment/test/test-deployment';
import { testProfile } from '../usage/seed/seed-profiles';
import { jsonTraces, todayRange } from '../usage/test/ingest-helpers';
import { USAGE_PATH } from '../usage/test/test-server';
import { openUsageStore } from '../usage/store/open-usage-store';
import { createUsageService } from '../usage/usage-service';

const ADMIN_KEY = 'lsv2_demo_admin';

/** The process as main.ts composes it, in langsmith mode: keys checked by its own usage API. */
async function startConsole() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'workspace-billing-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEMO_MODEL_STEP_MS: '0',
    LANGGRAPH_AUTH_TYPE: 'langsmith',
    REMOTE_METRICS_INTERVAL_MS: '100',
  });
  const self: { url?: string } = {};
  const store = await openUsageStore(config);
  const usage = await createUsageService(config, {
    store,
    seedProfile: testProfile(),
    announce: false,
  });
  const deployment = await createDeploymentService(config, {
    tracingTarget: tracingTargetFromConfig(config, () => self.url),
    meteringTarget: meteringTargetFromConfig(config, () => self.url),
    usageApiBase: () => self.url && `${self.url}/api/v1`,
  });
  const server = serve({
    fetch: createApp({ config, services: [usage, deployment] }).fetch,
    hostname: '127.0.0.1',
    port: 0,
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: self.url,
    /** A writer key of one workspace (`npm run usage:create-key -- --writer --workspace ID`). */
    createKey: async (workspaceId: string) => {
      const key = `lsv2_test_${workspaceId.replaceAll('-', '')}`;
      await store.catalog.createApiKey({
        key,
        label: `writer of ${workspaceId}`,
        workspaceIds: [workspaceId],
        writer: true,
      });
      return key;
    },
    close: async () => {
      await deployment.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await usage.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Today's metered deployment runs (kind=langsmith_deployments) of one workspace. */
async function deploymentRuns(baseUrl: string, workspaceId: string): Promise<number> {
  const { start, end } = todayRange();
  const search = new URLSearchParams({ start_time: start, end_time: end, group_by: 'project' });
  search.set('kind', 'langsmith_deployments');
  search.append('workspace_ids', workspaceId);
  const response = await fetch(`${baseUrl}${USAGE_PATH}?${search}`, {
    headers: { 'x-api-key': ADMIN_KEY },
  });
  const body = deploymentUsageResponseSchema.parse(await response.json());
  return body.usage.reduce((total, record) => total + record.agent_runs, 0);
}

let console_: Awaited<ReturnType<typeof startConsole>>;
beforeAll(async () => {
  console_ = await startConsole();
});
afterAll(async () => {
  await console_?.close();
});

it("bills a run to the workspace of the key's request (x-tenant-id), not the key's first", async () => {
  const { baseUrl } = console_;
  const listed = await fetch(`${baseUrl}/api/v1/workspaces`, {
    headers: { 'x-api-key': ADMIN_KEY },
  });
  const [first, second] = workspacesResponseSchema.parse(await listed.json());
  if (!first || !second) throw new Error('the test profile has two workspaces');
  const before = {
    first: await jsonTraces(baseUrl, 'workspace_id', first.id),
    second: await jsonTraces(baseUrl, 'workspace_id', second.id),
  };

  const client = new Client({
    apiUrl: `${baseUrl}/deployment`,
    apiKey: ADMIN_KEY,
    defaultHeaders: { 'x-tenant-id': second.id },
    callerOptions: { maxRetries: 0 },
  });
  const { thread_id, metadata } = await client.threads.create();
  expect(metadata).toMatchObject({ workspace_id: second.id });
  await client.runs.wait(thread_id, 'agent', { input: userInput(SF) });

  await expect
    .poll(() => jsonTraces(baseUrl, 'workspace_id', second.id), { timeout: 10_000 })
    .toBe(before.second + 1);
  expect(await jsonTraces(baseUrl, 'workspace_id', first.id)).toBe(before.first);
});

it("keeps keys of two workspaces apart, and bills each workspace's runs to it", async () => {
  const { baseUrl, createKey } = console_;
  const listed = await fetch(`${baseUrl}/api/v1/workspaces`, {
    headers: { 'x-api-key': ADMIN_KEY },
  });
  // Workspace A is not the first one, where the console's own key bills by default.
  const [first, second] = workspacesResponseSchema.parse(await listed.json());
  if (!first || !second) throw new Error('the test profile has two workspaces');
  const [workspaceA, workspaceB] = [second.id, first.id];
  const clientOf = async (workspaceId: string) =>
    new Client({
      apiUrl: `${baseUrl}/deployment`,
      apiKey: await createKey(workspaceId),
      callerOptions: { maxRetries: 0 },
    });
  const a = await clientOf(workspaceA);
  const b = await clientOf(workspaceB);
  const before = {
    a: await jsonTraces(baseUrl, 'workspace_id', workspaceA),
    b: await jsonTraces(baseUrl, 'workspace_id', workspaceB),
    aRuns: await deploymentRuns(baseUrl, workspaceA),
    bRuns: await deploymentRuns(baseUrl, workspaceB),
  };

  const { thread_id, metadata } = await a.threads.create();
  expect(metadata).toMatchObject({ workspace_id: workspaceA });
  await a.runs.wait(thread_id, 'agent', { input: userInput(SF) });
  await a.store.putItem(['memories'], 'city', { name: 'sf' });

  await expect(b.threads.get(thread_id)).rejects.toThrow(/HTTP 404/);
  await expect(b.runs.list(thread_id)).rejects.toThrow(/HTTP 404/);
  expect((await b.threads.search({ limit: 100 })).map((t) => t.thread_id)).not.toContain(thread_id);
  expect(await b.store.getItem(['memories'], 'city')).toBeNull();
  expect((await a.store.getItem(['memories'], 'city'))?.value).toEqual({ name: 'sf' });

  await expect
    .poll(() => jsonTraces(baseUrl, 'workspace_id', workspaceA), { timeout: 10_000 })
    .toBe(before.a + 1);
  expect(await jsonTraces(baseUrl, 'workspace_id', workspaceB)).toBe(before.b);
  // The deployment's own metering (runs and nodes) goes to the same workspace.
  await expect
    .poll(() => deploymentRuns(baseUrl, workspaceA), { timeout: 10_000 })
    .toBe(before.aRuns + 1);
  expect(await deploymentRuns(baseUrl, workspaceB)).toBe(before.bRuns);
});
