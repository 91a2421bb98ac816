import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageResponseSchema } from '@contracts/usage/usage-schema';
import {
  ADMIN,
  startTestServer,
  TEST_DIMENSIONS,
  totalTraces,
  usageUrl,
  type TestServer,
} from './test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const RANGE = { start: '2026-02-10T00:00:00Z', end: '2026-02-11T00:00:00Z' };
const project = TEST_DIMENSIONS.projects[3];
const user = TEST_DIMENSIONS.users.find((u) => u.wsIdx === project?.wsIdx);
const key = TEST_DIMENSIONS.apiKeys.find((k) => k.wsIdx === project?.wsIdx);
const workspaceId = TEST_DIMENSIONS.workspaces[project?.wsIdx ?? 0]?.id ?? '';
const trace = (runId: string, startTime = '2026-02-10T10:15:00Z') => ({
  run_id: runId,
  workspace_id: workspaceId,
  project_id: project?.id ?? '',
  user_id: user?.id ?? null,
  api_key_id: key?.id ?? null,
  start_time: startTime,
});

async function tracesFor(groupBy: string, field: string, id: string, range = RANGE) {
  const response = await fetch(usageUrl(server.baseUrl, { ...range, groupBy }), { headers: ADMIN });
  const body = usageResponseSchema.parse(await response.json());
  const dims = (r: (typeof body.usage)[number]) => r.dimensions as Record<string, unknown>;
  return totalTraces({ usage: body.usage.filter((r) => dims(r)[field] === id) });
}

/** Sends root runs through the LangSmith batch endpoint; returns its JSON answer. */
async function sendBatch(runIds: string[]): Promise<Record<string, unknown>> {
  const post = runIds.map((id) => ({
    id,
    trace_id: id,
    dotted_order: `20261123T120000000000Z${id}`,
    name: 'root',
    run_type: 'chain',
    session_name: 'ingest-trace-test',
  }));
  const response = await fetch(`${server.baseUrl}/api/v1/runs/batch`, {
    method: 'POST',
    headers: { ...ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ post }),
  });
  expect(response.status).toBe(202);
  return (await response.json()) as Record<string, unknown>;
}

describe('ingestTrace', () => {
  it('counts a new run once in every grouping, daily and hourly', async () => {
    const hourly = { start: '2026-02-10T10:00:00Z', end: '2026-02-10T11:00:00Z' };
    const before = await Promise.all([
      tracesFor('workspace', 'workspace_id', workspaceId),
      tracesFor('project', 'project_id', project?.id ?? ''),
      tracesFor('user', 'user_id', user?.id ?? ''),
      tracesFor('project', 'project_id', project?.id ?? '', hourly),
    ]);
    expect(
      await server.fixtures.ingestTrace(trace('5f0c7a52-9a43-4f1e-9b7a-1a2b3c4d5e01')),
    ).toEqual({
      inserted: true,
    });
    const after = await Promise.all([
      tracesFor('workspace', 'workspace_id', workspaceId),
      tracesFor('project', 'project_id', project?.id ?? ''),
      tracesFor('user', 'user_id', user?.id ?? ''),
      tracesFor('project', 'project_id', project?.id ?? '', hourly),
    ]);
    expect(after).toEqual(before.map((n) => n + 1));
  });

  it('the same run id twice counts once, also when delivered concurrently', async () => {
    const runId = '5f0c7a52-9a43-4f1e-9b7a-1a2b3c4d5e02';
    const before = await tracesFor('workspace', 'workspace_id', workspaceId);
    const results = await Promise.all([
      server.fixtures.ingestTrace(trace(runId)),
      server.fixtures.ingestTrace(trace(runId)),
      server.fixtures.ingestTrace(trace(runId, '2026-02-10T23:00:00Z')),
    ]);
    expect(results.filter((r) => r.inserted)).toHaveLength(1);
    expect(await tracesFor('workspace', 'workspace_id', workspaceId)).toBe(before + 1);
  });

  it('a trace without user or key is counted without those dimensions', async () => {
    const range = { start: '2026-03-20T00:00:00Z', end: '2026-03-21T00:00:00Z' };
    await server.fixtures.ingestTrace({
      ...trace('5f0c7a52-9a43-4f1e-9b7a-1a2b3c4d5e03', '2026-03-20T08:00:00Z'),
      user_id: null,
      api_key_id: undefined,
    });
    for (const groupBy of ['user', 'api_key']) {
      const response = await fetch(usageUrl(server.baseUrl, { ...range, groupBy }), {
        headers: ADMIN,
      });
      const body = usageResponseSchema.parse(await response.json());
      expect(body.usage).toEqual([
        { time_bucket: '2026-03-20T00:00:00.000Z', dimensions: {}, traces: 1 },
      ]);
    }
  });

  it('rejects malformed traces before touching the store', async () => {
    await expect(server.fixtures.ingestTrace({ ...trace('not-a-uuid') })).rejects.toThrow();
  });

  it('a run billed by one path is not billed again by the other, whatever the id case', async () => {
    const first = '5f0c7a52-9a43-4f1e-9b7a-1a2b3c4d5e04';
    expect(await server.fixtures.ingestTrace(trace(first))).toEqual({ inserted: true });
    expect(await sendBatch([first.toUpperCase()])).toMatchObject({ traces_billed: 0 });
    const second = '5f0c7a52-9a43-4f1e-9b7a-1a2b3c4d5e05';
    const [viaHttp, viaStore] = await Promise.all([
      sendBatch([second]),
      server.fixtures.ingestTrace(trace(second)),
    ]);
    expect(Number(viaHttp.traces_billed) + (viaStore.inserted ? 1 : 0)).toBe(1);
  });

  it('data survives a restart, the demo seed is not loaded twice, billed runs stay billed', async () => {
    const before = await tracesFor('workspace', 'workspace_id', workspaceId);
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startTestServer({}, dataDir);
    expect(await tracesFor('workspace', 'workspace_id', workspaceId)).toBe(before);
    expect(
      await server.fixtures.ingestTrace(trace('5f0c7a52-9a43-4f1e-9b7a-1a2b3c4d5e01')),
    ).toEqual({ inserted: false });
    expect(await sendBatch(['5f0c7a52-9a43-4f1e-9b7a-1a2b3c4d5e02'])).toMatchObject({
      traces_billed: 0,
    });
  });
});
