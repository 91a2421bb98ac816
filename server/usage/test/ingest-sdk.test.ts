import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoKeyOwner } from '../seed/demo-key-owners';
import { DEMO_KEY_GRANTS } from '../seed/demo-keys';
import { csvTraces, jsonTraces, sdkClient, sdkRootRun, sendTraces } from './ingest-helpers';
import { TEST_WORKSPACE_IDS, useTestServer } from './test-server';

const server = useTestServer();
const adminGrant = DEMO_KEY_GRANTS[0];
const admin = adminGrant && demoKeyOwner(adminGrant);

describe('trace ingestion through the langsmith SDK', () => {
  it('bills N root runs (not their children) once each, in JSON and CSV, also when resent', async () => {
    const project = `sdk-${randomUUID().slice(0, 8)}`;
    const client = sdkClient(server.baseUrl, 'lsv2_demo_admin');
    const workspace = TEST_WORKSPACE_IDS[0] ?? '';
    const before = {
      workspace: await jsonTraces(server.baseUrl, 'workspace_id', workspace),
      user: await jsonTraces(server.baseUrl, 'user_email', adminGrant?.ownerEmail ?? ''),
      apiKey: await jsonTraces(server.baseUrl, 'api_key_short_key', admin?.shortKey ?? ''),
    };

    const ids = await sendTraces(client, project, 4, 2);

    expect(ids).toHaveLength(4);
    const expected = {
      project: 4,
      workspace: before.workspace + 4,
      user: before.user + 4,
      apiKey: before.apiKey + 4,
    };
    const observed = async (count: typeof jsonTraces) => ({
      project: await count(server.baseUrl, 'project_name', project),
      workspace: await count(server.baseUrl, 'workspace_id', workspace),
      user: await count(server.baseUrl, 'user_email', adminGrant?.ownerEmail ?? ''),
      apiKey: await count(server.baseUrl, 'api_key_short_key', admin?.shortKey ?? ''),
    });
    expect(await observed(jsonTraces)).toEqual(expected);
    expect(await observed(csvTraces)).toEqual(expected);

    // The same runs again, through a fresh client (as a retry after a lost answer would be).
    await sendTracesWithIds(project, ids);
    expect(await observed(jsonTraces)).toEqual(expected);
    expect(await observed(csvTraces)).toEqual(expected);
  });

  it('bills into the workspace named by X-Tenant-Id (the SDK workspaceId)', async () => {
    const project = `tenant-${randomUUID().slice(0, 8)}`;
    const workspace = TEST_WORKSPACE_IDS[2] ?? '';
    const before = await jsonTraces(server.baseUrl, 'workspace_id', workspace);
    await sendTraces(
      sdkClient(server.baseUrl, 'lsv2_demo_admin', { workspaceId: workspace }),
      project,
      3,
      1,
    );
    expect(await jsonTraces(server.baseUrl, 'workspace_id', workspace)).toBe(before + 3);
    expect(await jsonTraces(server.baseUrl, 'project_name', project)).toBe(3);
  });

  it.each([
    ['an unknown key', 'lsv2_not_a_key', 401, 'Invalid API key.'],
    [
      'a key without runs:create',
      'lsv2_demo_noperm',
      403,
      'This API key lacks the runs:create permission.',
    ],
  ])('refuses %s', async (_label, apiKey, status, detail) => {
    const project = `refused-${randomUUID().slice(0, 8)}`;
    const client = sdkClient(server.baseUrl, apiKey);
    await expect(
      client.batchIngestRuns({ runCreates: [sdkRootRun(randomUUID(), project)] }),
    ).rejects.toThrow(String(status));
    const response = await fetch(`${server.baseUrl}/api/v1/runs/batch`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ post: [sdkRootRun(randomUUID(), project)] }),
    });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ detail });
    expect(await jsonTraces(server.baseUrl, 'project_name', project)).toBe(0);
  });
});

async function sendTracesWithIds(project: string, ids: string[]) {
  const client = sdkClient(server.baseUrl, 'lsv2_demo_admin');
  await client.multipartIngestRuns({ runCreates: ids.map((id) => sdkRootRun(id, project)) });
  await client.batchIngestRuns({ runCreates: ids.map((id) => sdkRootRun(id, project)) });
}
