import { describe, expect, it } from 'vitest';
import type { Stride } from '@contracts/usage/usage-schema';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { strideMs } from '@contracts/usage/stride';
import { planFetchWindows, showsServerBuckets } from './fetch-windows';

const DAY = 86_400_000;
const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
const daily: Stride = { days: 1, hours: 0 };
const weekly: Stride = { days: 7, hours: 0 };
const monthly: Stride = { days: 30, hours: 0 };

describe('planFetchWindows', () => {
  it.each<[string, string, string, Stride, number, boolean]>([
    ['30 days daily: one request, server buckets', '2026-10-24', '2026-11-23', daily, 1, true],
    ['30 days weekly: one request, re-bucketed', '2026-10-24', '2026-11-23', weekly, 1, false],
    ['3 months daily: 31-day windows', '2026-08-23', '2026-11-23', daily, 3, true],
    ['1 year daily: 12 windows', '2025-11-23', '2026-11-23', daily, 12, true],
    ['1 year weekly: 91-day windows + a daily tail', '2025-11-23', '2026-11-23', weekly, 5, false],
    ['6 months monthly: one request', '2026-05-23', '2026-11-23', monthly, 1, true],
    [
      '2 years monthly: 360-day windows + a daily tail',
      '2024-11-23',
      '2026-11-23',
      monthly,
      3,
      false,
    ],
  ])('%s', (_name, from, to, target, count, serverBuckets) => {
    const range = { startMs: day(from), endMs: day(to) };
    const windows = planFetchWindows(range, target);
    expect(windows).toHaveLength(count);
    expect(showsServerBuckets(windows, target)).toBe(serverBuckets);
  });

  it.each<[string, string, Stride]>([
    ['2025-11-23', '2026-11-23', daily],
    ['2025-11-23', '2026-11-23', weekly],
    ['2024-11-23', '2026-11-23', monthly],
    ['2026-01-01', '2026-05-17', weekly],
  ])('windows from %s to %s tile the range on bucket boundaries (%o)', (from, to, target) => {
    const range = { startMs: day(from), endMs: day(to) };
    const windows = planFetchWindows(range, target);
    expect(windows[0]?.startMs).toBe(range.startMs);
    expect(windows.at(-1)?.endMs).toBe(range.endMs);
    const boundaries = new Set(createBucketGrid(range.startMs, range.endMs, target).starts());
    windows.forEach((window, index) => {
      if (index > 0) expect(window.startMs).toBe(windows[index - 1]?.endMs);
      // Every server bucket of every window lies inside one screen bucket.
      expect(strideMs(target) % strideMs(window.serverStride)).toBe(0);
      const offset = (window.startMs - range.startMs) % strideMs(target);
      expect(offset % strideMs(window.serverStride)).toBe(0);
      if (strideMs(window.serverStride) === strideMs(target)) {
        expect(boundaries.has(window.startMs)).toBe(true);
      }
      expect(window.endMs - window.startMs).toBeLessThanOrEqual(366 * DAY);
    });
  });
});
