import { describe, expect, it } from 'vitest';
import { usageResponseSchema, type UsageResponse } from '@contracts/usage/usage-schema';
import { ADMIN, useTestServer, TEST_DIMENSIONS, TEST_WORKSPACE_IDS, usageUrl } from './test-server';

const server = useTestServer();

async function getUsage(start: string, end: string, groupBy?: string): Promise<UsageResponse> {
  const response = await fetch(usageUrl(server.baseUrl, { start, end, groupBy }), {
    headers: ADMIN,
  });
  expect(response.status).toBe(200);
  return usageResponseSchema.parse(await response.json());
}

const buckets = (body: UsageResponse) => [...new Set(body.usage.map((r) => r.time_bucket))];

describe('stride and bucket alignment over HTTP', () => {
  it.each([
    ['23 h 59 m: hourly', '2026-02-02T00:00:00Z', '2026-02-02T23:59:00Z', { days: 0, hours: 1 }],
    ['1 day: daily', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z', { days: 1, hours: 0 }],
    ['31 days: daily', '2026-01-10T00:00:00Z', '2026-02-10T00:00:00Z', { days: 1, hours: 0 }],
    [
      '31 days + 1 s: weekly',
      '2026-01-10T00:00:00Z',
      '2026-02-10T00:00:01Z',
      { days: 7, hours: 0 },
    ],
    ['32 days: weekly', '2026-01-10T00:00:00Z', '2026-02-11T00:00:00Z', { days: 7, hours: 0 }],
    ['93 days: weekly', '2026-01-05T00:00:00Z', '2026-04-08T00:00:00Z', { days: 7, hours: 0 }],
    ['94 days: 30 days', '2026-01-05T00:00:00Z', '2026-04-09T00:00:00Z', { days: 30, hours: 0 }],
    ['366 days: 30 days', '2026-01-05T00:00:00Z', '2027-01-06T00:00:00Z', { days: 30, hours: 0 }],
    ['367 days: 365 days', '2026-01-05T00:00:00Z', '2027-01-07T00:00:00Z', { days: 365, hours: 0 }],
  ])('%s', async (_label, start, end, stride) => {
    const body = await getUsage(start, end);
    expect(body.stride).toEqual(stride);
    expect(body.usage.length).toBeGreaterThan(0);
  });

  it('hourly buckets start on the UTC hour and stay inside the range', async () => {
    const body = await getUsage('2026-02-02T10:30:00Z', '2026-02-02T14:15:00Z');
    expect(buckets(body)).toEqual([
      '2026-02-02T10:00:00.000Z',
      '2026-02-02T11:00:00.000Z',
      '2026-02-02T12:00:00.000Z',
      '2026-02-02T13:00:00.000Z',
      '2026-02-02T14:00:00.000Z',
    ]);
  });

  it('weekly buckets start at start_time floored to UTC midnight, 7 days apart', async () => {
    const body = await getUsage('2026-01-07T15:00:00+02:00', '2026-03-01T00:00:00Z');
    expect(body.stride).toEqual({ days: 7, hours: 0 });
    expect(buckets(body)).toEqual([
      '2026-01-07T00:00:00.000Z',
      '2026-01-14T00:00:00.000Z',
      '2026-01-21T00:00:00.000Z',
      '2026-01-28T00:00:00.000Z',
      '2026-02-04T00:00:00.000Z',
      '2026-02-11T00:00:00.000Z',
      '2026-02-18T00:00:00.000Z',
      '2026-02-25T00:00:00.000Z',
    ]);
  });

  it('records are ordered by time_bucket and never carry zero traces', async () => {
    for (const groupBy of ['workspace', 'project', 'user', 'api_key']) {
      const body = await getUsage('2026-02-01T06:00:00Z', '2026-02-20T00:00:00Z', groupBy);
      const times = body.usage.map((r) => r.time_bucket);
      expect(times).toEqual([...times].sort());
      expect(body.usage.every((r) => r.traces > 0)).toBe(true);
    }
  });

  it('returns only the dimension fields of the group_by (a project also names its workspace)', async () => {
    const fields = async (groupBy: string) => {
      const body = await getUsage('2026-02-01T00:00:00Z', '2026-02-03T00:00:00Z', groupBy);
      return [...new Set(body.usage.flatMap((r) => Object.keys(r.dimensions)))].sort();
    };
    expect(await fields('workspace')).toEqual(['workspace_id', 'workspace_name']);
    // Beyond spec 2.1 (LangSmith sends project_id and project_name only): project names repeat
    // across workspaces, so the console shows each project's workspace beside it.
    expect(await fields('project')).toEqual([
      'project_id',
      'project_name',
      'workspace_id',
      'workspace_name',
    ]);
    expect(await fields('user')).toEqual(['user_email', 'user_id']);
    expect(await fields('api_key')).toEqual(['api_key_short_key']);
  });

  it('a range after the data gives 200 with an empty usage list', async () => {
    const body = await getUsage('2030-01-01T00:00:00Z', '2030-01-02T00:00:00Z');
    expect(body).toEqual({ stride: { days: 1, hours: 0 }, usage: [] });
  });
});

describe('cloud data floor (2026-01-05T00:00Z)', () => {
  it('a range starting before the floor counts only data on or after it', async () => {
    const inside = await getUsage('2026-01-05T00:00:00Z', '2026-01-12T00:00:00Z');
    const wider = await getUsage('2025-12-01T00:00:00Z', '2026-01-12T00:00:00Z');
    const total = (body: UsageResponse) => body.usage.reduce((sum, r) => sum + r.traces, 0);
    expect(total(wider)).toBe(total(inside));
    expect(total(inside)).toBeGreaterThan(0);
  });

  it('hides traces ingested before the floor', async () => {
    const [project] = TEST_DIMENSIONS.projects;
    await server.fixtures.ingestTrace({
      run_id: '0b6e3f7c-1d2a-4c5b-8e9f-000000000001',
      workspace_id: TEST_WORKSPACE_IDS[project?.wsIdx ?? 0] ?? '',
      project_id: project?.id ?? '',
      start_time: '2026-01-01T12:00:00Z',
    });
    const body = await getUsage('2025-12-31T00:00:00Z', '2026-01-05T00:00:00Z');
    expect(body.usage).toEqual([]);
  });
});
