import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_BY_VALUES } from '@contracts/usage/usage-schema';
import { formatCsvCell } from '@contracts/usage/csv';
import { createDuckDbUsageStore } from '@server/usage/store/duckdb/duckdb-usage-store';
import { openDuckDbStore, type DuckDbStore } from '@server/usage/store/duckdb/connection';
import type { UsageQueryPlan } from '../model/usage-plan';
import type { UsageRow } from '../model/usage-rows';
import type { UsageStoreWithFixtures } from '../store/usage-store';
import {
  dimensions,
  HOSTILE,
  loadRenderingFixture,
  planFor,
  RANGES,
} from './contract/rendering-fixture';
import { createRawReference } from './contract/raw-reference';
import { renderThroughPort } from './contract/render-through-port';

/**
 * The API writes the JSON body and the CSV lines from a (dimension value x bucket) matrix read
 * from the rollups. These tests hold them to the reference: rows read from raw traces (no
 * rollup), one JS object per record, formatted by `JSON.stringify` / `formatCsvRow`.
 * Byte-for-byte, over strides, partial edge days, the floor, 128-day period boundaries, export
 * windows of every size and labels with every control character.
 */

let dir: string;
let duck: DuckDbStore;
let backend: UsageStoreWithFixtures;
let render: ReturnType<typeof renderThroughPort>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'usage-render-'));
  duck = await openDuckDbStore(path.join(dir, 'usage.duckdb'));
  backend = createDuckDbUsageStore(duck);
  await loadRenderingFixture(backend);
  render = renderThroughPort(backend);
  reference = createRawReference(duck);
}, 60_000);
afterAll(async () => {
  await backend?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let reference: ReturnType<typeof createRawReference>;
const referenceRows = (plan: UsageQueryPlan): Promise<UsageRow[]> => reference.rows(plan);

const apiJson = (plan: UsageQueryPlan) => render.json(plan);
const apiCsv = (plan: UsageQueryPlan, windowCells?: number) => render.csv(plan, windowCells);

const referenceJson = (plan: UsageQueryPlan, rows: UsageRow[]) => reference.json(plan, rows);

describe('JSON and CSV written from the usage matrix', () => {
  it('formats a cell the way formatCsvCell does (sanity of the reference)', () => {
    expect(formatCsvCell(HOSTILE).startsWith(`"'=ctl`)).toBe(true);
  });

  for (const [start, end, floor] of RANGES) {
    for (const groupBy of GROUP_BY_VALUES) {
      it(`${start} .. ${end} by ${groupBy}: same bytes as the JS reference`, async () => {
        const plan = planFor(start, end, groupBy, floor);
        const rows = await referenceRows(plan);
        expect(await apiJson(plan)).toBe(await referenceJson(plan, rows));
        const csv = await apiCsv(plan);
        const expected = await reference.csv(plan, rows);
        expect(csv).toBe(expected);
        // Windows of one bucket, and of a few buckets, give the same file.
        expect(await apiCsv(plan, 1)).toBe(expected);
        expect(await apiCsv(plan, 200)).toBe(expected);
        if (start.startsWith('2026-01-26') && groupBy === 'user')
          expect(csv).toContain(formatCsvCell(`-${HOSTILE}`));
      });
    }
  }

  it('renders an empty answer as an empty usage array', async () => {
    const plan = planFor('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z', 'user', true);
    expect(await apiJson(plan)).toBe('{"stride":{"days":1,"hours":0},"usage":[]}');
    expect(await apiCsv(plan)).toBe('');
  });
});

// Runs last: it changes the dimension tables the tests above read.
describe('the dimension catalog kept between requests', () => {
  const plan = planFor('2026-01-26T00:00:00Z', '2026-01-28T00:00:00Z', 'user');
  const expectReference = async () => {
    const rows = await referenceRows(plan);
    const json = await apiJson(plan);
    expect(json).toBe(await referenceJson(plan, rows));
    expect(await apiCsv(plan)).toBe(await reference.csv(plan, rows));
    return json;
  };

  it('shows a renamed, added or removed value on the next request', async () => {
    await expectReference(); // fills the catalog
    const renamed = dimensions.users[0]?.id ?? '';
    await backend.fixtures.putDimension({
      groupBy: 'user',
      id: renamed,
      label: '!first@example.com',
    });
    expect(await expectReference()).toContain(
      `"user_id":"${renamed}","user_email":"!first@example.com"`,
    );
    // An id only traces knew gets a label; then a labelled user loses its row.
    const stranger = '00000000-0000-4000-8000-00000000beef';
    await backend.fixtures.putDimension({
      groupBy: 'user',
      id: stranger,
      label: 'stranger@example.com',
    });
    expect(await expectReference()).toContain(`"user_email":"stranger@example.com"`);
    await backend.fixtures.removeDimension('user', renamed);
    expect(await expectReference()).not.toContain('!first@example.com');
  });

  it("shows a project's renamed workspace on the next request", async () => {
    const byProject = planFor('2026-01-26T00:00:00Z', '2026-01-28T00:00:00Z', 'project');
    const json = async () => {
      const body = await apiJson(byProject);
      expect(body).toBe(await referenceJson(byProject, await referenceRows(byProject)));
      return body;
    };
    await json(); // fills the catalog
    const workspace = dimensions.workspaces[0]?.id ?? '';
    await backend.fixtures.putDimension({
      groupBy: 'workspace',
      id: workspace,
      label: 'Renamed workspace',
    });
    expect(await json()).toContain(
      `"workspace_id":"${workspace}","workspace_name":"Renamed workspace"`,
    );
  });
});
