import { createBucketGrid, type BucketGrid } from '@contracts/usage/bucket-grid';
import type { GroupBy, Stride, TraceTier } from '@contracts/usage/usage-schema';
import { AGGREGATION_STRIDES, type Aggregation, viewAggregation } from './aggregation';
import { createCalendarMonthGrid } from './calendar-month-grid';
import { planFetchWindows, type FetchWindow } from './fetch-windows';
import {
  resolveCustomRange,
  resolvePresetRange,
  type RangePreset,
  type TimeRange,
} from './time-range';

/**
 * The tab's billing domains (`?tab=`): LangSmith Traces, LangSmith Deployments, and what the
 * traced LLM runs spent (`llm`).
 */
export const USAGE_TABS = ['traces', 'deployments', 'llm'] as const;
export type UsageTab = (typeof USAGE_TABS)[number];

/** The retention filter of the Traces tab (`?tier=`): every trace, or one tier. */
export const TIER_FILTERS = ['all', 'longlived', 'shortlived'] as const;
export type TierFilter = (typeof TIER_FILTERS)[number];

/** The view as the URL holds it (see use-usage-view-params.ts). */
export interface UsageViewParams {
  tab: UsageTab;
  /** Traces only: `all`, or one retention tier. */
  tier: TierFilter;
  /** Dollars per 1,000 extended (long-lived) traces; `pricePer1k` is the base price. */
  extendedPricePer1k: number;
  period: RangePreset;
  from: string | null;
  to: string | null;
  aggregation: Aggregation | null;
  groupBy: GroupBy;
  /** `null`: every workspace the key can read. */
  workspaces: string[] | null;
  /** Dollars per 1,000 traces, for the cost estimates (not part of any query). */
  pricePer1k: number;
  /** The group the chart shows alone (a series key), or null for all (not part of any query). */
  focus: string | null;
}

/** Everything a query needs, fully resolved: the query key holds all of it. */
export interface ResolvedUsageView {
  range: TimeRange;
  stride: Stride;
  aggregation: Aggregation;
  groupBy: GroupBy;
  workspaceIds: string[];
  /** Traces of one retention tier only, or null for every tier. */
  traceTier: TraceTier | null;
  /** Workspaces the URL names that the key cannot read: left out, and the screen says so. */
  droppedWorkspaceIds: string[];
  windows: FetchWindow[];
}

/** What a query depends on: the URL state without prices, focus and tab. */
type QueryParams = Omit<
  UsageViewParams,
  'pricePer1k' | 'extendedPricePer1k' | 'focus' | 'tab' | 'tier'
> & { tier?: TierFilter };

export function resolveRange(params: QueryParams, nowMs: number): TimeRange | null {
  if (params.period !== 'custom') return resolvePresetRange(params.period, nowMs);
  if (!params.from || !params.to) return null;
  return resolveCustomRange(params.from, params.to) ?? null;
}

/**
 * Resolves URL parameters into the screen's query. Null when the custom range is incomplete or
 * invalid (nothing is fetched then).
 */
export function resolveUsageView(
  params: QueryParams,
  nowMs: number,
  readableWorkspaceIds: readonly string[],
): ResolvedUsageView | null {
  const range = resolveRange(params, nowMs);
  if (!range) return null;
  const aggregation = viewAggregation(range, params.aggregation);
  const stride = AGGREGATION_STRIDES[aggregation];
  return {
    range,
    stride,
    aggregation,
    groupBy: params.groupBy,
    traceTier: params.tier === undefined || params.tier === 'all' ? null : params.tier,
    ...splitWorkspaces(params.workspaces, readableWorkspaceIds),
    windows: planFetchWindows(range, stride),
  };
}

/**
 * The URL's workspace choice against what the key can read: a shared link may name a workspace
 * this key cannot see. Those are dropped (asking for them would fail or, worse, silently show
 * less) and reported. Ids are sorted so two orders share one cache entry.
 */
export function splitWorkspaces(
  requested: readonly string[] | null,
  readable: readonly string[],
): { workspaceIds: string[]; droppedWorkspaceIds: string[] } {
  if (requested === null) return { workspaceIds: [...readable].sort(), droppedWorkspaceIds: [] };
  const canRead = new Set(readable);
  const unique = [...new Set(requested)];
  return {
    workspaceIds: unique.filter((id) => canRead.has(id)).sort(),
    droppedWorkspaceIds: unique.filter((id) => !canRead.has(id)).sort(),
  };
}

/** True when the view can be asked for: a valid range and at least one workspace. */
export function isQueryable(view: ResolvedUsageView | null): view is ResolvedUsageView {
  return view !== null && view.workspaceIds.length > 0;
}

/** The part of a view that decides which records the API returns (the query keys hold it). */
export function usageViewKey(view: ResolvedUsageView) {
  return {
    start: view.range.startMs,
    end: view.range.endMs,
    groupBy: view.groupBy,
    workspaceIds: view.workspaceIds,
    traceTier: view.traceTier,
  };
}

/** The screen's buckets: UTC months for "Calendar month", else the stride from the range start. */
export function createViewGrid(view: ResolvedUsageView): BucketGrid {
  const { startMs, endMs } = view.range;
  return view.aggregation === 'calendar-month'
    ? createCalendarMonthGrid(startMs, endMs)
    : createBucketGrid(startMs, endMs, view.stride);
}
