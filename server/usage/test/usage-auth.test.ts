import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  usageResponseSchema,
  workspacesResponseSchema,
} from '@contracts/usage/usage-schema';
import { useTestServer, TEST_WORKSPACE_IDS, totalTraces, usageUrl } from './test-server';

const server = useTestServer();

const KEYS = {
  none: undefined,
  unknown: 'lsv2_pt_not_a_key',
  admin: 'lsv2_demo_admin',
  limited: 'lsv2_demo_limited',
  noperm: 'lsv2_demo_noperm',
} as const;
type KeyName = keyof typeof KEYS;
const RANGE = { start: '2026-02-01T00:00:00Z', end: '2026-02-08T00:00:00Z' };
const [WS0 = '', WS1 = '', WS2 = ''] = TEST_WORKSPACE_IDS;

function get(url: string, key: KeyName) {
  const apiKey = KEYS[key];
  return fetch(url, { headers: apiKey ? { 'x-api-key': apiKey } : {} });
}

describe('auth matrix over HTTP', () => {
  it.each<[KeyName, number, number, number]>([
    ['none', 401, 401, 401],
    ['unknown', 401, 401, 401],
    ['noperm', 200, 403, 403],
    ['limited', 200, 200, 200],
    ['admin', 200, 200, 200],
  ])('%s key: workspaces %i, usage %i, export %i', async (key, workspaces, usage, exported) => {
    const responses = await Promise.all([
      get(`${server.baseUrl}/api/v1/workspaces`, key),
      get(usageUrl(server.baseUrl, RANGE), key),
      get(usageUrl(server.baseUrl, { ...RANGE, export: true }), key),
    ]);
    expect(responses.map((r) => r.status)).toEqual([workspaces, usage, exported]);
    for (const response of responses.filter((r) => r.status >= 400)) {
      const body = errorBodySchema.parse(await response.json());
      expect(typeof body.detail).toBe('string');
      expect(JSON.stringify(body)).not.toContain('lsv2_');
    }
  });

  it.each<[KeyName, string[]]>([
    ['admin', TEST_WORKSPACE_IDS],
    ['limited', [WS0, WS1]],
    ['noperm', [WS0]],
  ])('%s key lists exactly its workspaces', async (key, expected) => {
    const response = await get(`${server.baseUrl}/api/v1/workspaces`, key);
    const workspaces = workspacesResponseSchema.parse(await response.json());
    expect(workspaces.map((ws) => ws.id)).toEqual(expected);
  });

  it('the limited key sees only its readable workspaces among those requested', async () => {
    const asLimited = await get(usageUrl(server.baseUrl, RANGE), 'limited');
    const limited = usageResponseSchema.parse(await asLimited.json());
    const seen = new Set(limited.usage.map((r) => r.dimensions.workspace_id));
    expect([...seen].sort()).toEqual([WS0, WS1].sort());
    const asAdmin = await get(
      usageUrl(server.baseUrl, { ...RANGE, workspaces: [WS0, WS1] }),
      'admin',
    );
    expect(totalTraces(limited)).toBe(totalTraces(usageResponseSchema.parse(await asAdmin.json())));
  });

  it('403 when none of the requested workspaces is readable (or they do not exist)', async () => {
    for (const ids of [[WS2], ['00000000-0000-4000-8000-000000000000']]) {
      const response = await get(
        usageUrl(server.baseUrl, { ...RANGE, workspaces: ids }),
        'limited',
      );
      expect(response.status).toBe(403);
    }
  });

  it('stores API keys only as hashes', async () => {
    const files = await readdir(server.dataDir);
    for (const file of files) {
      const bytes = await readFile(path.join(server.dataDir, file));
      expect(bytes.includes('lsv2_demo_admin')).toBe(false);
    }
    expect(files).toContain('usage.duckdb');
  });
});
