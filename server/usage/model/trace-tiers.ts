import type { TraceTier } from '@contracts/usage/usage-schema';
import type { DimensionCatalog } from './dimension-catalog';

/**
 * The two retention tiers as a dimension (group_by=trace_tier): fixed ids, the tier as label.
 * A trace's tier is a property of the trace, not a table, so every backend hands out this one
 * catalog, in output order (by label).
 */
export const TIER_IDS: Record<TraceTier, string> = {
  longlived: '7e1e0000-0000-4000-8000-000000000001',
  shortlived: '7e1e0000-0000-4000-8000-000000000002',
};

export const TIER_CATALOG: DimensionCatalog = {
  groupBy: 'trace_tier',
  ids: [TIER_IDS.longlived, TIER_IDS.shortlived],
  labels: ['longlived', 'shortlived'],
};
