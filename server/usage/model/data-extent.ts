import type { BucketGrid } from '@contracts/usage/bucket-grid';
import type { Interval } from './time-segments';
import type { UsageQueryPlan } from './usage-plan';

/**
 * The plan with the part of its range that a backend reads cut to `extent`: the buckets (and so the
 * answer) stay those of the range asked for, but a range ending in year 9999 reads the few
 * periods that exist instead of building a statement over 22,000 empty ones.
 */
export function clampToData(plan: UsageQueryPlan, extent: Interval | null): UsageQueryPlan {
  if (!extent) return { ...plan, ceilingMs: plan.grid.startMs };
  return {
    ...plan,
    floorMs: Math.max(plan.floorMs ?? extent.from, extent.from),
    ceilingMs: Math.min(plan.ceilingMs ?? extent.to, extent.to),
  };
}

/**
 * The buckets of `grid` that can hold data (those overlapping `extent`), as a window of it; null
 * when none can. Every other bucket is empty and the answer leaves empty buckets out, so querying
 * the window gives the same answer while the matrix spans the data, not the range asked for (a
 * range ending in 9999 has ~8,000 yearly buckets: x 5,000 users, 320 MB of matrix).
 */
export function bucketsOverData(grid: BucketGrid, extent: Interval | null): BucketGrid | null {
  if (!extent) return null;
  const from = Math.max(extent.from, grid.originMs);
  const to = Math.min(extent.to, grid.endMs);
  if (from >= to) return null;
  const first = grid.indexOf(from);
  return grid.window(first, grid.indexOf(to - 1) - first + 1);
}
