import type { Stride } from '@contracts/usage/usage-schema';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '@contracts/usage/usage-schema';
import { buildUsageMatrix } from './usage-matrix';
import { concatCsvFiles, usageMatrixToCsv } from './usage-csv';

const gridOf = (range: { startMs: number; endMs: number }, stride: Stride) =>
  createBucketGrid(range.startMs, range.endMs, stride);

const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
const HEADER =
  'Time Bucket Start,Time Bucket End,Workspace ID,Workspace Name,Project ID,Project Name,User ID,User Email,API Key Short Key,Traces\r\n';

describe('usageMatrixToCsv', () => {
  const records: UsageRecord[] = [
    {
      time_bucket: '2026-11-01T00:00:00Z',
      traces: 3,
      dimensions: { project_id: 'p-1', project_name: '=SUM(A1:A2)' },
    },
    {
      time_bucket: '2026-11-02T00:00:00Z',
      traces: 4,
      dimensions: { project_id: 'p-2', project_name: 'Ops, "West"\nteam' },
    },
    {
      time_bucket: '2026-11-09T00:00:00Z',
      traces: 5,
      dimensions: { project_id: 'p-1', project_name: '=SUM(A1:A2)' },
    },
  ];

  it.each([
    // The embedded server names a project's workspace: the file says it when asked, as the
    // screen does.
    [{ workspace_id: 'w-1', workspace_name: 'Acme' }, true, 'w-1,Acme,p-9,chat'],
    // By default, spec 2.3: only the project's own columns.
    [{ workspace_id: 'w-1', workspace_name: 'Acme' }, false, ',,p-9,chat'],
    // LangSmith does not name it: those cells stay empty either way.
    [{}, true, ',,p-9,chat'],
  ])('a project row with %j, includeContext %s: %s', (workspace, includeContext, cells) => {
    const matrix = buildUsageMatrix(
      [
        {
          time_bucket: '2026-11-01T00:00:00Z',
          traces: 2,
          dimensions: { project_id: 'p-9', project_name: 'chat', ...workspace },
        },
      ],
      gridOf({ startMs: day('2026-11-01'), endMs: day('2026-11-02') }, { days: 1, hours: 0 }),
      'project',
    );
    expect(usageMatrixToCsv(matrix, 'project', { includeContext })).toBe(
      // User ID, User Email and API Key Short Key empty, then the traces.
      `${HEADER}2026-11-01T00:00:00.000Z,2026-11-02T00:00:00.000Z,${cells},,,,2\r\n`,
    );
  });

  it('writes the screen buckets with every column, escaped like the server', () => {
    const matrix = buildUsageMatrix(
      records,
      gridOf({ startMs: day('2026-11-01'), endMs: day('2026-11-11') }, { days: 7, hours: 0 }),
      'project',
    );
    expect(usageMatrixToCsv(matrix, 'project')).toBe(
      HEADER +
        `2026-11-01T00:00:00.000Z,2026-11-08T00:00:00.000Z,,,p-1,'=SUM(A1:A2),,,,3\r\n` +
        `2026-11-01T00:00:00.000Z,2026-11-08T00:00:00.000Z,,,p-2,"Ops, ""West""\nteam",,,,4\r\n` +
        // The last bucket ends at the range end (partial), not a full stride later.
        `2026-11-08T00:00:00.000Z,2026-11-11T00:00:00.000Z,,,p-1,'=SUM(A1:A2),,,,5\r\n`,
    );
  });

  it('adds the estimated cost column when asked, at the given price', () => {
    const matrix = buildUsageMatrix(
      records,
      gridOf({ startMs: day('2026-11-01'), endMs: day('2026-11-11') }, { days: 7, hours: 0 }),
      'project',
    );
    const [header, ...rows] = usageMatrixToCsv(matrix, 'project', { pricePer1k: 2.5 })
      .trimEnd()
      .split('\r\n');
    expect(header).toBe(`${HEADER.trimEnd()},Estimated Cost USD (estimate)`);
    expect(rows.map((row) => row.split(',').at(-1))).toEqual(['0.0075', '0.01', '0.0125']);
  });
});

describe('concatCsvFiles', () => {
  it.each([
    ['keeps one header', [`${HEADER}a\r\n`, `${HEADER}b\r\n`], `${HEADER}a\r\nb\r\n`],
    [
      'drops BOMs and tolerates files without a final newline',
      [`\uFEFF${HEADER}a`, `\uFEFF${HEADER}b`],
      `${HEADER}a\r\nb\r\n`,
    ],
    [
      'skips header-only windows',
      [`${HEADER}a\r\n`, HEADER, `${HEADER}c\r\n`],
      `${HEADER}a\r\nc\r\n`,
    ],
  ])('%s', (_name, files, expected) => {
    expect(concatCsvFiles(files)).toBe(expected);
  });
});
