import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Client } from '@langchain/langgraph-sdk';
import { Hono } from 'hono';
import { loadConfig } from '@server/config';
import { threadStateSchema } from '@contracts/deployment';
import { createDeploymentService } from '@server/deployment/deployment-service';
import type { RunMetrics } from '@server/deployment/runs/run-metrics';
import { serveWebSocketUpgrades } from '@server/deployment/protocol/websocket-upgrade';
import { dropTestDatabase, testDatabaseFor } from './test-database';

export interface TestDeployment {
  url: string;
  client: Client;
  dataDir: string;
  /** Closes the service and the listener; keeps the data directory (restart tests reuse it). */
  stop: () => Promise<void>;
}

/**
 * Serves the deployment service over real HTTP on a free port, as `npm start` mounts it, with
 * an SDK client pointed at it. Used by tests and the bench; `dataDir` defaults to a fresh temp dir.
 * With `TEST_DATABASE_URI` set, the service runs on Postgres, in a database of its own per data
 * directory (a restart with the same `dataDir` finds its data again).
 */
export async function startTestDeployment(options: {
  stepMs: number;
  dataDir?: string;
  /** A langgraph.json to serve instead of the demo graph (its schemas parsed before this resolves). */
  langgraphConfig?: string;
  /** More variables for the config (the bench's cluster mode: DATABASE_URI, REDIS_URI). */
  env?: Record<string, string>;
  /** Where the service records run counts (a test's own registry). */
  metrics?: RunMetrics;
}) {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'deployment-')));
  const databaseUri = await testDatabaseFor(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(databaseUri && { DATABASE_URI: databaseUri }),
    DEMO_MODEL_STEP_MS: String(options.stepMs),
    ...(options.langgraphConfig && { LANGGRAPH_CONFIG: options.langgraphConfig }),
    ...options.env,
  });
  const service = await createDeploymentService(config, { metrics: options.metrics });
  await service.ready?.();
  const app = new Hono().route(service.basePath, service.app);
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  serveWebSocketUpgrades(server, (request, env) => app.fetch(request, env));
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${service.basePath}`;
  const deployment: TestDeployment = {
    url,
    // No retries: a test must see the first answer; high concurrency for the load cases.
    client: new Client({ apiUrl: url, callerOptions: { maxRetries: 0, maxConcurrency: 64 } }),
    dataDir,
    stop: async () => {
      // As a shutdown: drained first, which ends the protocol v2 event streams and WebSockets
      // a client left open (they never end by themselves) and stops executing runs.
      await service.drain?.();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
      await service.close();
    },
  };
  return deployment;
}

export async function removeDataDir(dataDir: string) {
  await rm(dataDir, { recursive: true, force: true });
  await dropTestDatabase(dataDir);
}

/**
 * The thread's conversation as short strings, for exact assertions:
 * `human: <text>`, `ai: get_weather(<city>)`, `tool: <result>`, `ai: <answer>`.
 */
export async function conversation(client: Client, threadId: string): Promise<string[]> {
  const state = threadStateSchema.parse(await client.threads.getState(threadId));
  return state.values.messages.map((message) => {
    if (message.type === 'ai' && message.tool_calls.length > 0) {
      const call = message.tool_calls[0];
      return `ai: ${call?.name}(${String(call?.args.city)})`;
    }
    return `${message.type}: ${typeof message.content === 'string' ? message.content : '[blocks]'}`;
  });
}

/** The four messages one "weather in <city>" run leaves. */
export function exchange(question: string, city: string, forecast: string): string[] {
  return [
    `human: ${question}`,
    `ai: get_weather(${city})`,
    `tool: ${forecast}`,
    `ai: Here is the weather: ${forecast}`,
  ];
}

/** The questions the tests ask, and the four messages each run leaves (the scripted forecasts). */
export const SF = 'weather in sf?';
export const NYC = "what's the weather in nyc?";
export const SF_RUN = exchange(SF, 'sf', "It's 60 degrees and foggy in San Francisco.");
export const NYC_RUN = exchange(NYC, 'nyc', "It's 90 degrees and sunny in New York.");

export const userInput = (text: string) => ({ messages: [{ role: 'user', content: text }] });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The HTTP status an SDK call failed with (the SDK throws an error carrying `status`). */
export async function failureStatus(call: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status !== 'number') throw error;
    return status;
  }
}

/**
 * Waits until the thread state holds `count` messages: a run's progress, observed rather than
 * guessed from timing (1 = first model call under way, 2 = tool under way, 3 = final model call).
 */
export async function waitForMessages(client: Client, threadId: string, count: number) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const state = threadStateSchema.parse(await client.threads.getState(threadId));
    if (state.values.messages.length >= count) return;
    await sleep(5);
  }
  throw new Error(`thread ${threadId} never reached ${count} messages`);
}
