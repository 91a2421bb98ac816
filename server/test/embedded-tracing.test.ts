import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig, type Config } from '../config';
import { createDeploymentService } from '../deployment/deployment-service';
import { tracingTargetFromConfig } from '../deployment/runs/run-tracing';
import {
  conversation,
  failureStatus,
  NYC,
  NYC_RUN,
  SF,
  userInput,
  waitForMessages,
} from '../deployment/test/test-deployment';
import type { Service } from '../http/service';
import { testProfile } from '../usage/seed/seed-profiles';
import { jsonTraces } from '../usage/test/ingest-helpers';
import { createUsageService } from '../usage/usage-service';

/** The whole process as main.ts composes it: usage + deployment, tracing to its own URL. */
async function startConsole(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-tracing-'));
  const config: Config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  // Filled in once the server listens, as main.ts does.
  const self: { url?: string } = {};
  const usage = await createUsageService(config, { seedProfile: testProfile(), announce: false });
  const deployment = await createDeploymentService(config, {
    tracingTarget: tracingTargetFromConfig(config, () => self.url),
  });
  const services: Service[] = [usage, deployment];
  const server = serve({
    fetch: createApp({ config, services }).fetch,
    hostname: '127.0.0.1',
    port: 0,
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self.url = baseUrl;
  return {
    baseUrl,
    client: new Client({ apiUrl: `${baseUrl}/deployment`, callerOptions: { maxRetries: 0 } }),
    /** Stops the deployment first: its close delivers the traces still batched. */
    stopDeployment: () => deployment.close(),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await usage.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe('the embedded deployment bills its runs through the langsmith SDK', () => {
  let console_: Awaited<ReturnType<typeof startConsole>>;
  beforeAll(async () => {
    console_ = await startConsole({ DEMO_MODEL_STEP_MS: '300' });
  });
  afterAll(async () => {
    await console_?.close();
  });

  it('a double-text with rollback adds exactly 2 traces, the rolled-back run included', async () => {
    const { client, baseUrl } = console_;
    const before = await jsonTraces(baseUrl, 'project_name', 'agent');
    const threadId = (await client.threads.create()).thread_id;
    const run1 = await client.runs.create(threadId, 'agent', { input: userInput(SF) });
    // Run 1 is under way (its first model step done) when the second text arrives.
    await waitForMessages(client, threadId, 2);
    const run2 = await client.runs.create(threadId, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'rollback',
    });
    await client.runs.join(threadId, run2.run_id);
    expect(await conversation(client, threadId)).toEqual(NYC_RUN);
    expect(await failureStatus(client.runs.get(threadId, run1.run_id))).toBe(404);

    // The SDK sends in batches: both traces arrive shortly after the flow (each at its run's start).
    await expect
      .poll(() => jsonTraces(baseUrl, 'project_name', 'agent'), { timeout: 10_000 })
      .toBe(before + 2);
    await console_.stopDeployment();
    expect(await jsonTraces(baseUrl, 'project_name', 'agent')).toBe(before + 2);
  });
});

describe('with DEPLOYMENT_TRACING=false', () => {
  let console_: Awaited<ReturnType<typeof startConsole>>;
  beforeAll(async () => {
    console_ = await startConsole({ DEMO_MODEL_STEP_MS: '0', DEPLOYMENT_TRACING: 'false' });
  });
  afterAll(async () => {
    await console_?.close();
  });

  it('runs are not traced, so nothing is billed', async () => {
    const { client, baseUrl } = console_;
    const before = await jsonTraces(baseUrl, 'project_name', 'agent');
    const threadId = (await client.threads.create()).thread_id;
    const run = await client.runs.create(threadId, 'agent', { input: userInput(SF) });
    await client.runs.join(threadId, run.run_id);
    await console_.stopDeployment();
    expect(await jsonTraces(baseUrl, 'project_name', 'agent')).toBe(before);
  });
});

describe('serving a langgraph.json', () => {
  let console_: Awaited<ReturnType<typeof startConsole>>;
  beforeAll(async () => {
    console_ = await startConsole({
      LANGGRAPH_CONFIG: path.join(
        import.meta.dirname,
        '../deployment/test/fixtures/graphs/slow.json',
      ),
    });
  }, 120_000);
  afterAll(async () => {
    await console_?.close();
  });

  it("bills a loaded graph's runs in a project named after the graph, rolled back or not", async () => {
    const { client, baseUrl } = console_;
    const threadId = (await client.threads.create()).thread_id;
    await client.runs.create(threadId, 'slow', { input: userInput('first') });
    // Run 1 is under way (its first step done) when the second text arrives.
    await expect
      .poll(async () => {
        const state = await client.threads.getState<{ messages: unknown[] }>(threadId);
        return state.values.messages?.length ?? 0;
      })
      .toBeGreaterThanOrEqual(2);
    const run2 = await client.runs.create(threadId, 'slow', {
      input: userInput('second'),
      multitaskStrategy: 'rollback',
    });
    await client.runs.join(threadId, run2.run_id);

    await expect
      .poll(() => jsonTraces(baseUrl, 'project_name', 'slow'), { timeout: 10_000 })
      .toBe(2);
    expect(await jsonTraces(baseUrl, 'project_name', 'agent')).toBe(0);
  });
});
