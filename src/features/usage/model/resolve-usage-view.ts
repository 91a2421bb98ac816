import type { GroupBy, Stride } from '@/contracts/usage';
import { type Aggregation, defaultAggregation, viewStride } from './aggregation';
import { planFetchWindows, type FetchWindow } from './fetch-windows';
import {
  resolveCustomRange,
  resolvePresetRange,
  type RangePreset,
  type TimeRange,
} from './time-range';

/** The view as the URL holds it (see use-usage-view-params.ts). */
export interface UsageViewParams {
  period: RangePreset;
  from: string | null;
  to: string | null;
  aggregation: Aggregation | null;
  groupBy: GroupBy;
  /** `null`: every workspace the key can read. */
  workspaces: string[] | null;
}

/** Everything a query needs, fully resolved: the query key holds all of it. */
export interface ResolvedUsageView {
  range: TimeRange;
  stride: Stride;
  aggregation: Aggregation | 'hourly';
  groupBy: GroupBy;
  workspaceIds: string[];
  windows: FetchWindow[];
}

export function resolveRange(params: UsageViewParams, nowMs: number): TimeRange | null {
  if (params.period !== 'custom') return resolvePresetRange(params.period, nowMs);
  if (!params.from || !params.to) return null;
  return resolveCustomRange(params.from, params.to) ?? null;
}

/**
 * Resolves URL parameters into the screen's query. Null when the custom range is incomplete or
 * invalid (nothing is fetched then). Workspace ids are sorted so two orders share one cache entry.
 */
export function resolveUsageView(
  params: UsageViewParams,
  nowMs: number,
  readableWorkspaceIds: readonly string[],
): ResolvedUsageView | null {
  const range = resolveRange(params, nowMs);
  if (!range) return null;
  const stride = viewStride(range, params.aggregation);
  const fallback = defaultAggregation(range);
  return {
    range,
    stride,
    aggregation: fallback === 'hourly' ? 'hourly' : (params.aggregation ?? fallback),
    groupBy: params.groupBy,
    workspaceIds: [...(params.workspaces ?? readableWorkspaceIds)].sort(),
    windows: planFetchWindows(range, stride),
  };
}

/** Stands in for "no view yet" where a hook needs a value; queries on it are disabled. */
export const EMPTY_USAGE_VIEW: ResolvedUsageView = {
  range: { startMs: 0, endMs: 1 },
  stride: { days: 1, hours: 0 },
  aggregation: 'daily',
  groupBy: 'workspace',
  workspaceIds: [],
  windows: [],
};
