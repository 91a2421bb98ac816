import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { usageResponseSchema } from '@contracts/usage/usage-schema';
import { strideForRange } from '@contracts/usage/stride';
import { isQueryable, usageViewKey, type ResolvedUsageView } from '../model/resolve-usage-view';
import { previousPeriod } from '../model/time-range';
import { describeGroup } from '../model/usage-matrix';
import { GRANULAR_USAGE_PATH, windowSearchParams } from './get-usage-matrix';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

export interface PeriodTotals {
  total: number;
  byGroup: Map<string, number>;
}

/** Totals of the period of the same length just before the view: one request, any stride. */
export async function getPreviousTotals(
  connection: UsageConnection,
  view: ResolvedUsageView,
  signal?: AbortSignal,
): Promise<PeriodTotals> {
  const range = previousPeriod(view.range);
  const window = { ...range, serverStride: strideForRange(range.startMs, range.endMs) };
  const params = windowSearchParams(window, view.groupBy, view.workspaceIds);
  const response = await getFromUsageApi(connection, GRANULAR_USAGE_PATH, params, signal);
  const { usage } = usageResponseSchema.parse(await response.json());
  const byGroup = new Map<string, number>();
  let total = 0;
  for (const record of usage) {
    const { key } = describeGroup(record.dimensions, view.groupBy);
    byGroup.set(key, (byGroup.get(key) ?? 0) + record.traces);
    total += record.traces;
  }
  return { total, byGroup };
}

export function previousTotalsQueryOptions(
  connection: UsageConnection,
  view: ResolvedUsageView | null,
) {
  return queryOptions({
    queryKey: ['usage', 'previous-totals', connectionId(connection), view && usageViewKey(view)],
    queryFn: isQueryable(view)
      ? ({ signal }) => getPreviousTotals(connection, view, signal)
      : skipToken,
  });
}

export function usePreviousTotals(view: ResolvedUsageView | null) {
  const { connection } = useUsageConnection();
  return useQuery(previousTotalsQueryOptions(connection, view));
}
