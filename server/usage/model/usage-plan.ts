import type { BucketGrid } from '@contracts/usage/bucket-grid';
import type { TraceGroupBy, TraceTier } from '@contracts/usage/usage-schema';

/**
 * A validated, authorised usage query: `workspaceIds` are already limited to readable ones, and
 * `grid` holds the range and its buckets (spec 2.2), cut once for the whole request.
 */
export interface UsageQueryPlan {
  grid: BucketGrid;
  /** No data before this instant (the cloud floor), or null. */
  floorMs: number | null;
  /** No data from this instant on (the end of the stored data, see `clampToData`). */
  ceilingMs?: number;
  workspaceIds: readonly string[];
  groupBy: TraceGroupBy;
  /** Only traces of this retention tier; absent: every tier. */
  traceTier?: TraceTier;
}

/**
 * Whether a plan needs each trace's tier (a tier filter or grouping): the rollups count traces
 * without it, so such a plan reads raw traces for its whole range (exact, slower on large data).
 */
export const readsTiers = (plan: UsageQueryPlan): boolean =>
  plan.traceTier !== undefined || plan.groupBy === 'trace_tier';

/** The range of a plan that can hold data: from the later of start and floor, to end. */
export const dataFrom = ({ grid, floorMs }: UsageQueryPlan): number =>
  Math.max(grid.startMs, floorMs ?? grid.startMs);

/** ... to the earlier of end and ceiling. */
export const dataTo = ({ grid, ceilingMs }: UsageQueryPlan): number =>
  Math.min(grid.endMs, ceilingMs ?? grid.endMs);
