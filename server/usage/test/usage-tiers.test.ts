import { describe, expect, it } from 'vitest';
import { usageResponseSchema, type UsageRecord } from '@contracts/usage/usage-schema';
import { parseCsv } from './csv-parse';
import { sdkClient, sendTraces, todayRange } from './ingest-helpers';
import { ADMIN, TEST_DIMENSIONS, useTestServer, usageUrl } from './test-server';

const server = useTestServer();

/** Records of a query, with `trace_tier` added when given. */
async function records(params: {
  start: string;
  end: string;
  groupBy: string;
  tier?: string;
}): Promise<UsageRecord[]> {
  const url = new URL(usageUrl(server.baseUrl, params));
  if (params.tier) url.searchParams.set('trace_tier', params.tier);
  const response = await fetch(url, { headers: ADMIN });
  expect(response.status).toBe(200);
  return usageResponseSchema.parse(await response.json()).usage;
}

/** Traces per (bucket, group key) of a list of records. */
function cells(usage: UsageRecord[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const record of usage) {
    const key = `${record.time_bucket} ${JSON.stringify(record.dimensions)}`;
    map.set(key, (map.get(key) ?? 0) + record.traces);
  }
  return map;
}

const RANGES: [string, string][] = [
  // hourly, daily with partial edge days, weekly, monthly
  ['2026-02-03T07:00:00Z', '2026-02-03T19:30:00Z'],
  ['2026-02-01T10:00:00Z', '2026-02-15T06:00:00Z'],
  ['2026-01-20T00:00:00Z', '2026-03-02T00:00:00Z'],
  ['2026-01-05T00:00:00Z', '2026-03-15T00:00:00Z'],
];

describe('retention tiers (trace_tier)', () => {
  it.each(RANGES)(
    '%s .. %s: longlived + shortlived = all, bucket by bucket',
    async (start, end) => {
      for (const groupBy of ['workspace', 'project'] as const) {
        const [all, long, short] = await Promise.all([
          records({ start, end, groupBy }),
          records({ start, end, groupBy, tier: 'longlived' }),
          records({ start, end, groupBy, tier: 'shortlived' }),
        ]);
        const sum = cells(long);
        for (const [key, traces] of cells(short)) sum.set(key, (sum.get(key) ?? 0) + traces);
        expect(long.length).toBeGreaterThan(0);
        expect(short.length).toBeGreaterThan(0);
        expect(sum).toEqual(cells(all));
      }
    },
  );

  it('group_by=trace_tier names each tier and matches the tier filters', async () => {
    const [start, end] = ['2026-02-01T00:00:00Z', '2026-02-08T00:00:00Z'];
    const [byTier, long] = await Promise.all([
      records({ start, end, groupBy: 'trace_tier' }),
      records({ start, end, groupBy: 'workspace', tier: 'longlived' }),
    ]);
    expect(new Set(byTier.map((record) => record.dimensions.trace_tier))).toEqual(
      new Set(['longlived', 'shortlived']),
    );
    const longTotal = (usage: UsageRecord[]) => usage.reduce((sum, r) => sum + r.traces, 0);
    expect(longTotal(byTier.filter((r) => r.dimensions.trace_tier === 'longlived'))).toBe(
      longTotal(long),
    );
  });

  it("a long-lived project's traces are long-lived; the CSV says so", async () => {
    // The seed makes every third project of a workspace long-lived (local index 0, 3, ...).
    const longProject = TEST_DIMENSIONS.projects.find((p) => p.localIdx === 0);
    const shortProject = TEST_DIMENSIONS.projects.find((p) => p.localIdx === 1);
    const [start, end] = ['2026-02-01T00:00:00Z', '2026-02-08T00:00:00Z'];
    const long = await records({ start, end, groupBy: 'project', tier: 'longlived' });
    const ids = new Set(long.map((record) => record.dimensions.project_id));
    expect(ids.has(longProject?.id)).toBe(true);
    expect(ids.has(shortProject?.id)).toBe(false);

    const url = usageUrl(server.baseUrl, { start, end, groupBy: 'trace_tier', export: true });
    const [header = [], ...rows] = parseCsv(await (await fetch(url, { headers: ADMIN })).text());
    const tiers = new Set(rows.map((row) => row[header.indexOf('Trace Tier')]));
    expect(tiers).toEqual(new Set(['longlived', 'shortlived']));
  });
});

describe("a project's tier, set through ingestion (POST /api/v1/sessions)", () => {
  /** Today's traces of project `name` in `tier`, from the JSON API. */
  async function tierTraces(name: string, tier: string): Promise<number> {
    const usage = await records({ ...todayRange(), groupBy: 'project', tier });
    return usage
      .filter((record) => record.dimensions.project_name === name)
      .reduce((sum, record) => sum + record.traces, 0);
  }
  const setTier = (name: string, tier: string) =>
    fetch(`${server.baseUrl}/api/v1/sessions`, {
      method: 'POST',
      headers: { ...ADMIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, trace_tier: tier }),
    });

  it('bills new traces in the tier of the moment; earlier traces keep theirs', async () => {
    const client = sdkClient(server.baseUrl, 'lsv2_demo_admin');
    await sendTraces(client, 'tiering', 2, 0);
    expect((await setTier('tiering', 'longlived')).status).toBe(200);
    await sendTraces(client, 'tiering', 3, 0);
    expect([
      await tierTraces('tiering', 'shortlived'),
      await tierTraces('tiering', 'longlived'),
    ]).toEqual([2, 3]);
  });

  it('refuses an unknown tier with 422 naming it', async () => {
    const response = await setTier('tiering', 'forever');
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      detail: [{ loc: ['body', 'trace_tier'], type: 'enum' }],
    });
  });
});
