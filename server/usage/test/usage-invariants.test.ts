import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GROUP_BY_VALUES,
  TRACE_GROUP_BY_VALUES,
  usageResponseSchema,
} from '@contracts/usage/usage-schema';
import { parseCsv } from './csv-parse';
import { ADMIN, useTestServer, TEST_WORKSPACE_IDS, totalTraces, usageUrl } from './test-server';

const server = useTestServer();

type Params = { start: string; end: string; workspaces?: string[]; groupBy?: string };

async function jsonTotal(params: Params): Promise<number> {
  const response = await fetch(usageUrl(server.baseUrl, params), { headers: ADMIN });
  expect(response.status).toBe(200);
  return totalTraces(usageResponseSchema.parse(await response.json()));
}

async function csvTotal(params: Params): Promise<number> {
  const response = await fetch(usageUrl(server.baseUrl, { ...params, export: true }), {
    headers: ADMIN,
  });
  const [header = [], ...rows] = parseCsv(await response.text());
  // By name, as a script would: a group_by=trace_tier file has one more column.
  const traces = header.indexOf('Traces');
  expect(traces).toBeGreaterThan(0);
  return rows.reduce((sum, row) => sum + Number(row[traces]), 0);
}

const RANGES: [string, string][] = [
  ['2026-02-03T07:00:00Z', '2026-02-03T19:30:00Z'],
  ['2026-02-01T00:00:00Z', '2026-02-15T00:00:00Z'],
  ['2026-01-20T13:45:00Z', '2026-03-02T06:10:00Z'],
  ['2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z'],
];

describe('invariants', () => {
  it.each(RANGES)(
    '%s .. %s: same total for every group_by, in JSON and CSV',
    async (start, end) => {
      const totals = await Promise.all(
        TRACE_GROUP_BY_VALUES.flatMap((groupBy) => [
          jsonTotal({ start, end, groupBy }),
          csvTotal({ start, end, groupBy }),
        ]),
      );
      expect(totals[0]).toBeGreaterThan(0);
      expect(new Set(totals).size).toBe(1);
    },
  );

  it('workspace A + workspace B = A and B together', async () => {
    const [a = '', b = ''] = TEST_WORKSPACE_IDS;
    const [start, end] = RANGES[2] ?? ['', ''];
    const [onlyA, onlyB, both] = await Promise.all([
      jsonTotal({ start, end, workspaces: [a] }),
      jsonTotal({ start, end, workspaces: [b] }),
      jsonTotal({ start, end, workspaces: [a, b] }),
    ]);
    expect(onlyA).toBeGreaterThan(0);
    expect(onlyB).toBeGreaterThan(0);
    expect(onlyA + onlyB).toBe(both);
  });

  it('splitting a range anywhere preserves the total (rollup days + raw edges are exact)', async () => {
    const from = Date.parse('2026-01-05T00:00:00Z');
    const span = Date.parse('2026-03-15T00:00:00Z') - from;
    const instant = fc.integer({ min: 0, max: span / 60_000 }).map((m) => from + m * 60_000);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(instant, { minLength: 3, maxLength: 3 }),
        fc.constantFrom(...GROUP_BY_VALUES),
        async (points, groupBy) => {
          const [s = 0, m = 0, e = 0] = [...points].sort((x, y) => x - y);
          const iso = (ms: number) => new Date(ms).toISOString();
          const [left, right, whole] = await Promise.all([
            jsonTotal({ start: iso(s), end: iso(m), groupBy }),
            jsonTotal({ start: iso(m), end: iso(e), groupBy }),
            jsonTotal({ start: iso(s), end: iso(e), groupBy }),
          ]);
          expect(left + right).toBe(whole);
        },
      ),
      { numRuns: 40 },
    );
  });
});
