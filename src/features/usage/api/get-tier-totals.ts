import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { strideForRange } from '@contracts/usage/stride';
import { usageResponseGuard } from '@contracts/response-guards';
import { isQueryable, usageViewKey, type ResolvedUsageView } from '../model/resolve-usage-view';
import type { TierTotals } from '../model/tier-cost';
import { GRANULAR_USAGE_PATH, windowSearchParams } from './get-usage-matrix';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/**
 * The view's traces per retention tier (`group_by=trace_tier` over its whole range, one request),
 * for the tiered cost estimate. A view of one tier needs no request: nothing is fetched for it.
 */
export async function getTierTotals(
  connection: UsageConnection,
  view: ResolvedUsageView,
  signal?: AbortSignal,
): Promise<TierTotals> {
  const { range } = view;
  const window = { ...range, serverStride: strideForRange(range.startMs, range.endMs) };
  const params = windowSearchParams(window, 'trace_tier', view.workspaceIds);
  const response = await getFromUsageApi(connection, GRANULAR_USAGE_PATH, params, signal);
  const totals: TierTotals = { longlived: 0, shortlived: 0 };
  for (const record of usageResponseGuard(await response.json()).usage) {
    // A server without tiers (or a record without one) counts as the default, short-lived.
    totals[record.dimensions.trace_tier ?? 'shortlived'] += record.traces;
  }
  return totals;
}

export function tierTotalsQueryOptions(
  connection: UsageConnection,
  view: ResolvedUsageView | null,
) {
  const key = view && { ...usageViewKey(view), traceTier: null, groupBy: 'trace_tier' };
  return queryOptions({
    queryKey: ['usage', 'tier-totals', connectionId(connection), key],
    queryFn:
      isQueryable(view) && view.traceTier === null
        ? ({ signal }) => getTierTotals(connection, view, signal)
        : skipToken,
  });
}

export function useTierTotals(view: ResolvedUsageView | null) {
  const { connection } = useUsageConnection();
  return useQuery(tierTotalsQueryOptions(connection, view));
}
