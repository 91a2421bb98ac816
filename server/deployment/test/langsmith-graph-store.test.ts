import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Client } from '@langchain/langgraph-sdk';
import { Hono } from 'hono';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeDataDir, startTestDeployment, type TestDeployment } from './test-deployment';

const LANGGRAPH_JSON = path.resolve(import.meta.dirname, 'fixtures/graphs/memory.json');
const WORKSPACES: Record<string, string> = { 'key-a': randomUUID(), 'key-b': randomUUID() };

/** A stand-in LangSmith: each key writes to one workspace. */
const langsmith = new Hono().get('/api/v1/workspaces', (c) => {
  const id = WORKSPACES[c.req.header('x-api-key') ?? ''];
  return id ? c.json([{ id, read_only: false }]) : c.json({ detail: 'Invalid API key.' }, 401);
});
const langsmithServer = serve({ fetch: langsmith.fetch, hostname: '127.0.0.1', port: 0 });

let deployment: TestDeployment;
beforeAll(async () => {
  if (!langsmithServer.listening) {
    await new Promise<void>((resolve) => langsmithServer.once('listening', () => resolve()));
  }
  const { port } = langsmithServer.address() as AddressInfo;
  deployment = await startTestDeployment({
    stepMs: 0,
    langgraphConfig: LANGGRAPH_JSON,
    env: {
      LANGGRAPH_AUTH_TYPE: 'langsmith',
      LANGSMITH_AUTH_ENDPOINT: `http://127.0.0.1:${port}`,
    },
  });
});
afterAll(async () => {
  await deployment.stop();
  await removeDataDir(deployment.dataDir);
  langsmithServer.close();
});

const clientFor = (apiKey: string) =>
  new Client({ apiUrl: deployment.url, apiKey, callerOptions: { maxRetries: 0 } });

it("gives a run's nodes its key's workspace's store items, as the Store API gives the key", async () => {
  const a = clientFor('key-a');
  const b = clientFor('key-b');
  await a.store.putItem(['memories'], 'city', { name: 'sf' });
  await b.store.putItem(['memories'], 'city', { name: 'nyc' });

  const ranForA = await a.runs.wait(null, 'memory', { input: {} });
  expect(ranForA).toMatchObject({ remembered: { name: 'sf' } });
  const ranForB = await b.runs.wait(null, 'memory', { input: {} });
  expect(ranForB).toMatchObject({ remembered: { name: 'nyc' } });
  // What a node wrote is read back by its workspace's key only.
  await b.store.deleteItem(['memories'], 'seen');
  expect((await a.store.getItem(['memories'], 'seen'))?.value).toEqual({ by: 'recall' });
  expect(await b.store.getItem(['memories'], 'seen')).toBeNull();
});
