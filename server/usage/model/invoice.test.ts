import { describe, expect, it } from 'vitest';
import { allocate, monthSpan, projectToMonthEnd } from './invoice';
import { zeroMetrics } from './billing-usage';

describe('allocate', () => {
  it.each<[number, number[], number[]]>([
    [75, [9, 4], [52, 23]],
    [75, [6, 3, 4], [35, 17, 23]],
    [3, [6, 3, 4], [1, 1, 1]],
    [10, [1, 1, 1], [4, 3, 3]],
    [0, [5, 5], [0, 0]],
    [7, [0, 0], [0, 0]],
    [7, [0, 3], [0, 7]],
  ])('%i over %j is %j', (total, weights, parts) => {
    expect(allocate(total, weights)).toEqual(parts);
    if (weights.some((weight) => weight > 0)) {
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
    }
  });
});

describe('monthSpan', () => {
  it.each([
    ['2026-02', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['2026-12', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
  ])('%s', (month, start, end) => {
    const span = monthSpan(month);
    expect([span.start.toISOString(), span.end.toISOString()]).toEqual([start, end]);
  });
});

describe('projectToMonthEnd', () => {
  it('carries the month-to-date rate to the end of the month', () => {
    const sofar = { ...zeroMetrics(), base_traces: 1000, extended_upgrades: 3 };
    // 10 of 30 days gone: three times as much by the end.
    const day = 86_400_000;
    expect(projectToMonthEnd(sofar, 10 * day, 30 * day)).toMatchObject({
      base_traces: 3000,
      extended_upgrades: 9,
      deployment_runs: 0,
    });
  });
});
