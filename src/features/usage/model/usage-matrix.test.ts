import type { Stride } from '@contracts/usage/usage-schema';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '@contracts/usage/usage-schema';
import { OTHER_KEY, summariseOther, topSeriesWithOther } from './top-series';
import { buildUsageMatrix } from './usage-matrix';

const gridOf = (range: { startMs: number; endMs: number }, stride: Stride) =>
  createBucketGrid(range.startMs, range.endMs, stride);

const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
const range = { startMs: day('2026-11-01'), endMs: day('2026-11-15') };
const daily = { days: 1, hours: 0 };
const weekly = { days: 7, hours: 0 };

function record(date: string, traces: number, dimensions: UsageRecord['dimensions']): UsageRecord {
  return { time_bucket: `${date}T00:00:00Z`, traces, dimensions };
}

describe('buildUsageMatrix', () => {
  const records = [
    record('2026-11-01', 5, { project_id: 'p-1', project_name: 'default' }),
    record('2026-11-03', 7, { project_id: 'p-2', project_name: 'default' }),
    record('2026-11-09', 11, { project_id: 'p-1', project_name: 'default' }),
    record('2026-11-14', 2, { project_id: 'p-3', project_name: 'chat' }),
  ];

  it('zero-fills every bucket of the range', () => {
    const matrix = buildUsageMatrix(records, gridOf(range, daily), 'project');
    expect(matrix.buckets).toHaveLength(14);
    expect(matrix.values.get('p-1')).toEqual([5, 0, 0, 0, 0, 0, 0, 0, 11, 0, 0, 0, 0, 0]);
    expect(matrix.total).toBe(25);
  });

  it('re-buckets daily records into 7-day buckets aligned at the range start', () => {
    const matrix = buildUsageMatrix(records, gridOf(range, weekly), 'project');
    expect(matrix.buckets).toEqual([day('2026-11-01'), day('2026-11-08')]);
    expect(matrix.values.get('p-1')).toEqual([5, 11]);
    expect(matrix.bucketTotals).toEqual([12, 13]);
  });

  it('keys groups by id and tells same-named groups apart', () => {
    const matrix = buildUsageMatrix(records, gridOf(range, daily), 'project');
    expect(matrix.series.map((series) => series.label).sort()).toEqual([
      'chat',
      'default (p-1)',
      'default (p-2)',
    ]);
  });

  it.each([
    ['user', { user_id: null, user_email: null }, 'Unknown user'],
    ['user', { user_id: '0b6f5c4e-aaaa', user_email: null }, 'User 0b6f5c4e (no email)'],
    ['user', { user_id: 'u-1' }, 'User u-1 (no email)'],
    ['workspace', {}, 'Unknown workspace'],
    ['api_key', { api_key_short_key: '***abcd' }, '***abcd'],
    ['project', { project_id: 'p', project_name: '=HYPERLINK("x")' }, '=HYPERLINK("x")'],
  ] as const)('labels %s dimensions %o as %s', (groupBy, dimensions, label) => {
    const matrix = buildUsageMatrix(
      [record('2026-11-02', 1, dimensions)],
      gridOf(range, daily),
      groupBy,
    );
    expect(matrix.series.map((series) => series.label)).toEqual([label]);
  });
});

describe('topSeriesWithOther', () => {
  const many = Array.from({ length: 14 }, (_, index) =>
    record(`2026-11-0${(index % 3) + 1}`, index + 1, {
      workspace_id: `w-${index}`,
      workspace_name: `Workspace ${index}`,
    }),
  );
  const matrix = buildUsageMatrix(many, gridOf(range, daily), 'workspace');

  it('keeps the 10 largest groups and puts the exact remainder in Other', () => {
    const series = topSeriesWithOther(matrix, 10);
    expect(series).toHaveLength(11);
    expect(series[0]?.label).toBe('Workspace 13');
    const other = series.at(-1);
    expect(other?.key).toBe(OTHER_KEY);
    expect(other?.label).toBe('Other (4 more)');
    expect(other?.total).toBe(1 + 2 + 3 + 4);
    // Each bucket's stack adds up to the bucket's real total.
    matrix.bucketTotals.forEach((bucketTotal, index) => {
      expect(series.reduce((sum, item) => sum + (item.values[index] ?? 0), 0)).toBe(bucketTotal);
    });
  });

  it('ranks by another matrix when charts share one legend: same groups, same order', () => {
    // The same groups with the opposite sizes: ranked by `matrix`, the order is matrix's.
    const reversed = buildUsageMatrix(
      Array.from({ length: 14 }, (_, index) =>
        record(`2026-11-0${(index % 3) + 1}`, 14 - index, {
          workspace_id: `w-${index}`,
          workspace_name: `Workspace ${index}`,
        }),
      ),
      gridOf(range, daily),
      'workspace',
    );
    const own = topSeriesWithOther(matrix, 10).map((item) => item.key);
    const shared = topSeriesWithOther(reversed, 10, matrix);
    expect(shared.map((item) => item.key)).toEqual(own);
    // "Other" still holds the exact remainder of the reversed matrix.
    reversed.bucketTotals.forEach((bucketTotal, index) => {
      expect(shared.reduce((sum, item) => sum + (item.values[index] ?? 0), 0)).toBe(bucketTotal);
    });
  });

  it('has no Other when every group fits', () => {
    expect(topSeriesWithOther(matrix, 14).some((item) => item.key === OTHER_KEY)).toBe(false);
    expect(summariseOther(matrix, topSeriesWithOther(matrix, 14))).toBeNull();
  });

  it("summarises Other: its groups, its share and the largest folded group's share", () => {
    // Totals 1..14 (105 in all); Other folds 1, 2, 3 and 4.
    expect(summariseOther(matrix, topSeriesWithOther(matrix, 10))).toEqual({
      groups: 4,
      share: 10 / 105,
      largestShare: 4 / 105,
    });
  });
});
