import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '@server/app';
import { loadConfig } from '@server/config';
import { buildDimensions } from '../seed/build-dimensions';
import { testProfile, type SeedProfile } from '../seed/seed-profiles';
import { createUsageService, type UsageService } from '../usage-service';
import { backendChoice } from '../store/open-usage-store';
import type { StoreFixtures } from '../store/usage-store';
import { openStoreWithFixtures } from './contract/fresh-stores';

export interface TestServer {
  baseUrl: string;
  service: UsageService;
  /** The writes tests arrange the store with (a trace at its own time, dimension values). */
  fixtures: StoreFixtures;
  dataDir: string;
  close: (options?: { keepData?: boolean }) => Promise<void>;
}

/**
 * The real stack for tests: a fresh DATA_DIR, the usage service seeded with the small test
 * profile (about 24k traces, 2026-01-05 to 2026-03-15), mounted by the real app and served
 * over HTTP on a free port.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  existingDataDir?: string,
  seedProfile: SeedProfile = testProfile(),
): Promise<TestServer> {
  const dataDir = existingDataDir ?? (await mkdtemp(path.join(tmpdir(), 'usage-test-')));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const store = await openStoreWithFixtures(backendChoice(config));
  const service = await createUsageService(config, { store, seedProfile, announce: false });
  const app = createApp({ config, services: [service] });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    service,
    fixtures: store.fixtures,
    dataDir,
    close: async ({ keepData = false } = {}) => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One test server for the whole file: started before the first test, closed after the last.
 * The returned object is filled in by `beforeAll`, so tests read `server.baseUrl` as usual.
 */
export function useTestServer(
  env: Record<string, string> = {},
  seedProfile: SeedProfile = testProfile(),
): TestServer {
  const server = {} as TestServer;
  beforeAll(async () => {
    Object.assign(server, await startTestServer(env, undefined, seedProfile));
  });
  afterAll(async () => {
    await server.close?.();
  });
  return server;
}

/** Workspace ids of the test dataset, in seeding order (the limited key reads the first two). */
export const TEST_WORKSPACE_IDS = buildDimensions(testProfile()).workspaces.map((ws) => ws.id);
export const TEST_DIMENSIONS = buildDimensions(testProfile());

export const USAGE_PATH = '/api/v1/orgs/current/billing/granular-usage';

/** Builds a usage URL with repeated workspace_ids keys. */
export function usageUrl(
  baseUrl: string,
  params: { start: string; end: string; workspaces?: string[]; groupBy?: string; export?: boolean },
): string {
  const search = new URLSearchParams({ start_time: params.start, end_time: params.end });
  for (const id of params.workspaces ?? TEST_WORKSPACE_IDS) search.append('workspace_ids', id);
  if (params.groupBy) search.set('group_by', params.groupBy);
  return `${baseUrl}${USAGE_PATH}${params.export ? '/export' : ''}?${search}`;
}

export const ADMIN = { 'x-api-key': 'lsv2_demo_admin' };

/** Sum of `traces` over a JSON usage response. */
export function totalTraces(body: { usage: { traces: number }[] }): number {
  return body.usage.reduce((sum, record) => sum + record.traces, 0);
}
