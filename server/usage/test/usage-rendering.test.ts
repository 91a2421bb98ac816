import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOUD_USAGE_DATA_START,
  CSV_DIMENSION_COLUMNS,
  GROUP_BY_VALUES,
  USAGE_CSV_COLUMNS,
  type GroupBy,
  type UsageCsvColumn,
  type UsageDimensions,
  type UsageResponse,
} from '@contracts/usage/usage-schema';
import { formatCsvCell, formatCsvRow } from '@contracts/usage/csv';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { strideForRange, strideMs } from '@contracts/usage/stride';
import { buildDimensions } from '../seed/build-dimensions';
import { seedIfEmpty } from '../seed/seed-database';
import { testProfile } from '../seed/seed-profiles';
import { createRunIngestor } from '../store/ingest-runs';
import { createTraceIngestor } from '../store/ingest-trace';
import { csvExportResponse } from '../http/csv-export';
import { createUsageRenderer } from '../http/render-usage';
import { getUsage } from '../query/get-usage';
import { createDimensionCatalogs } from '../store/dimension-catalog';
import type { UsageQueryPlan } from '../query/usage-facts-sql';
import { queryUsageRows, toDimensions, type UsageRow } from '../query/usage-rows';
import { openUsageStore, type UsageStore } from '../store/usage-store';

/**
 * The API writes the JSON body and the CSV lines from a (dimension value x bucket) matrix read
 * from the rollups. These tests hold them to the reference: rows read from raw traces (no
 * rollup), one JS object per record, formatted by `JSON.stringify` / `formatCsvRow`.
 * Byte-for-byte, over strides, partial edge days, the floor, 128-day period boundaries, export
 * windows of every size and labels with every control character.
 */

const decoder = new TextDecoder();
const HOSTILE = `=ctl\u0000\u0001\b\t\n\u000b\f\r\u000e\u001f"q"\\back, slash \\u001A \\\u001a ’ ✓`;
const dimensions = buildDimensions(testProfile());
const workspaceIds = dimensions.workspaces.map((ws) => ws.id);
const hostileProject = '0b7c0d7e-0000-4000-8000-000000000001';
const hostileUser = '0b7c0d7e-0000-4000-8000-000000000002';
const hostileKey = '0b7c0d7e-0000-4000-8000-000000000003';

let dir: string;
let store: UsageStore;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'usage-render-'));
  store = await openUsageStore(path.join(dir, 'usage.duckdb'));
  await seedIfEmpty(store, testProfile());
  const workspaceId = workspaceIds[1] ?? '';
  await store.withConnection(async (connection) => {
    await connection.run(`INSERT INTO projects VALUES ($1::UUID, $2::UUID, $3)`, [
      hostileProject,
      workspaceId,
      HOSTILE,
    ]);
    await connection.run(`INSERT INTO users VALUES ($1::UUID, $2)`, [hostileUser, `-${HOSTILE}`]);
    await connection.run(`INSERT INTO api_keys VALUES ($1::UUID, $2::UUID, $3, 'x')`, [
      hostileKey,
      workspaceId,
      `@${HOSTILE}`,
    ]);
  });
  const ingestor = createRunIngestor(store);
  const ingest = createTraceIngestor(ingestor);
  const times = ['2026-01-26T23:59:59.999Z', '2026-01-27T00:00:00Z', '2026-02-03T12:34:56Z'];
  for (const [i, time] of times.entries()) {
    await ingest({
      run_id: `0b7c0d7e-0000-4000-8000-1000000000${String(i).padStart(2, '0')}`,
      workspace_id: workspaceId,
      project_id: hostileProject,
      user_id: hostileUser,
      api_key_id: hostileKey,
      start_time: time,
    });
  }
  // Ids the dimension tables do not know (traces may name any id), before and after known ids
  // in UUID order, and traces without a user or key: they sort with the unlabelled values.
  const strangers: [string | null, string][] = [
    ['00000000-0000-4000-8000-00000000beef', '2026-01-27T08:00:00Z'],
    ['ffffffff-0000-4000-8000-00000000beef', '2026-01-27T09:00:00Z'],
    [null, '2026-01-26T10:00:00Z'],
  ];
  for (const [i, [id, time]] of strangers.entries()) {
    await ingest({
      run_id: `0b7c0d7e-0000-4000-8000-2000000000${String(i).padStart(2, '0')}`,
      workspace_id: workspaceId,
      project_id: id ?? hostileProject,
      user_id: id,
      api_key_id: id,
      start_time: time,
    });
  }
  await ingestor.close();
}, 60_000);
afterAll(async () => {
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function planFor(start: string, end: string, groupBy: GroupBy, floor = false): UsageQueryPlan {
  const startMs = Date.parse(start);
  const endMs = Date.parse(end);
  return {
    grid: createBucketGrid(startMs, endMs, strideForRange(startMs, endMs)),
    floorMs: floor ? Date.parse(CLOUD_USAGE_DATA_START) : null,
    workspaceIds,
    groupBy,
  };
}

const referenceRows = (plan: UsageQueryPlan): Promise<UsageRow[]> =>
  store.withConnection((connection) => queryUsageRows(connection, plan));

// As the routes do: one catalog cache for every request of the file.
const catalogs = createDimensionCatalogs();
const renderer = createUsageRenderer();

const apiJson = async (plan: UsageQueryPlan) => {
  const answer = await store.withConnection((c) => getUsage(c, plan, catalogs));
  return decoder.decode(renderer.json(answer.plan, answer.matrix));
};

/** The export's data lines (header dropped), with export windows of at most `windowCells`. */
async function apiCsv(plan: UsageQueryPlan, windowCells?: number): Promise<string> {
  const text = await (await csvExportResponse(store, plan, catalogs, renderer, windowCells)).text();
  return text.slice(text.indexOf('\r\n') + 2);
}

/** Each project's workspace, read straight from the tables (the reference's own lookup). */
async function projectWorkspaces(): Promise<Map<string, { id: string; name: string }>> {
  const reader = await store.withConnection((connection) =>
    connection.runAndReadAll(
      `SELECT p.id::VARCHAR, w.id::VARCHAR, w.display_name
        FROM projects p JOIN workspaces w ON w.id = p.workspace_id`,
    ),
  );
  return new Map(
    reader
      .getRowsJS()
      .map(([project, id, name]) => [String(project), { id: String(id), name: String(name) }]),
  );
}

async function referenceJson(plan: UsageQueryPlan, rows: UsageRow[]): Promise<string> {
  const workspaces = await projectWorkspaces();
  const body: UsageResponse = {
    stride: plan.grid.stride,
    usage: rows.map((row) => ({
      time_bucket: new Date(row.bucketMs).toISOString(),
      dimensions: toDimensions(
        plan.groupBy,
        row,
        row.dimId === null ? undefined : workspaces.get(row.dimId),
      ),
      traces: row.traces,
    })),
  };
  return JSON.stringify(body);
}

function referenceCsvLine(
  plan: UsageQueryPlan,
  row: UsageRow,
  workspaces: Map<string, { id: string; name: string }>,
): string {
  const own: Partial<Record<UsageCsvColumn, keyof UsageDimensions>> =
    CSV_DIMENSION_COLUMNS[plan.groupBy];
  // A project row names its workspace in the file too, as on screen.
  const dims = toDimensions(
    plan.groupBy,
    row,
    row.dimId === null ? undefined : workspaces.get(row.dimId),
  );
  // Computed here, not by the grid under test: the next bucket's start, or the range's end.
  const end = Math.min(row.bucketMs + strideMs(plan.grid.stride), plan.grid.endMs);
  return formatCsvRow([
    new Date(row.bucketMs).toISOString(),
    new Date(end).toISOString(),
    ...USAGE_CSV_COLUMNS.slice(2, 9).map((column) => {
      const field = own[column];
      return field ? dims[field] : undefined;
    }),
    row.traces,
  ]);
}

const RANGES: [string, string, boolean][] = [
  ['2026-01-05T00:00:00Z', '2026-03-15T00:00:00Z', false], // 7-day stride, whole days
  ['2026-01-03T05:30:00Z', '2026-03-10T13:17:00.250Z', true], // floor, partial edges
  ['2026-02-01T10:00:00Z', '2026-02-01T20:30:00Z', false], // hourly
  ['2026-01-20T00:00:00Z', '2026-02-09T12:00:00Z', false], // daily across a period boundary
  ['2026-01-10T07:00:00Z', '2026-04-30T00:00:00Z', false], // 30-day stride
  ['2025-06-01T00:00:00Z', '2026-12-01T00:00:00Z', false], // 365-day stride
  ['2026-01-26T00:00:00Z', '2026-01-28T00:00:00Z', false], // the hostile traces' days
  // Data only in later buckets: the matrix covers those (bucket 2 on), the answer is unchanged.
  ['2024-01-01T00:00:00Z', '2026-12-01T00:00:00Z', false], // 365-day stride
  ['2025-10-01T00:00:00Z', '2026-02-20T00:00:00Z', true], // 30-day stride, floor
  ['2020-01-01T00:00:00Z', '9999-12-31T00:00:00Z', false], // ~8,000 yearly buckets
];

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
        const workspaces = await projectWorkspaces();
        const expected = rows.map((row) => referenceCsvLine(plan, row, workspaces)).join('');
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
    const workspaces = await projectWorkspaces();
    expect(await apiCsv(plan)).toBe(
      rows.map((row) => referenceCsvLine(plan, row, workspaces)).join(''),
    );
    return json;
  };

  it('shows a renamed, added or removed value on the next request', async () => {
    await expectReference(); // fills the catalog
    const run = (sql: string, values: string[]) =>
      store.withConnection((connection) => connection.run(sql, values));
    const renamed = dimensions.users[0]?.id ?? '';
    await run(`UPDATE users SET email = $2 WHERE id = $1::UUID`, [renamed, '!first@example.com']);
    expect(await expectReference()).toContain(
      `"user_id":"${renamed}","user_email":"!first@example.com"`,
    );
    // An id only traces knew gets a label; then a labelled user loses its row.
    const stranger = '00000000-0000-4000-8000-00000000beef';
    await run(`INSERT INTO users VALUES ($1::UUID, $2)`, [stranger, 'stranger@example.com']);
    expect(await expectReference()).toContain(`"user_email":"stranger@example.com"`);
    await run(`DELETE FROM users WHERE id = $1::UUID`, [renamed]);
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
    await store.withConnection((connection) =>
      connection.run(`UPDATE workspaces SET display_name = $2 WHERE id = $1::UUID`, [
        workspace,
        'Renamed workspace',
      ]),
    );
    expect(await json()).toContain(
      `"workspace_id":"${workspace}","workspace_name":"Renamed workspace"`,
    );
  });
});
