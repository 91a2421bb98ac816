import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { usageResponseGuard } from '@contracts/response-guards';
import { strideForRange } from '@contracts/usage/stride';
import { comparesPartOfView, type ComparisonPlan } from '../model/measured-comparison';
import { isQueryable, usageViewKey, type ResolvedUsageView } from '../model/resolve-usage-view';
import type { TimeRange } from '../model/time-range';
import { describeGroup } from '../model/usage-matrix';
import { GRANULAR_USAGE_PATH, windowSearchParams } from './get-usage-matrix';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

export interface PeriodTotals {
  total: number;
  byGroup: Map<string, number>;
}

/**
 * The two sides of a measured comparison. `current` is null when the comparison covers the
 * whole view (the screen's own totals are the current side); when the floor clipped the previous
 * period or the view runs past now, it holds the totals of the plan's current window.
 */
export interface ComparisonTotals {
  previous: PeriodTotals;
  current: PeriodTotals | null;
}

/** Totals of one range by group: one request, at whatever stride the server picks. */
async function getRangeTotals(
  connection: UsageConnection,
  view: ResolvedUsageView,
  range: TimeRange,
  signal?: AbortSignal,
): Promise<PeriodTotals> {
  const window = { ...range, serverStride: strideForRange(range.startMs, range.endMs) };
  const params = windowSearchParams(window, view.groupBy, view.workspaceIds, view);
  const response = await getFromUsageApi(connection, GRANULAR_USAGE_PATH, params, signal);
  const { usage } = usageResponseGuard(await response.json());
  const byGroup = new Map<string, number>();
  let total = 0;
  for (const record of usage) {
    const { key } = describeGroup(record.dimensions, view.groupBy);
    byGroup.set(key, (byGroup.get(key) ?? 0) + record.traces);
    total += record.traces;
  }
  return { total, byGroup };
}

/** Totals of the range of one side of a comparison, by the view's group. */
type RangeSums<Sums> = (
  connection: UsageConnection,
  view: ResolvedUsageView,
  range: TimeRange,
  signal?: AbortSignal,
) => Promise<Sums>;

/**
 * A measured comparison's query, for any figure a tab compares (`name` keys it): the previous
 * side, and the current one when it is not the whole view. Nothing is fetched for an unmeasured
 * previous period: there is nothing to compare.
 */
export function measuredComparisonQueryOptions<Sums>(
  name: string,
  rangeSums: RangeSums<Sums>,
  connection: UsageConnection,
  view: ResolvedUsageView | null,
  plan: ComparisonPlan | null,
) {
  const measured = plan?.kind === 'measured' ? plan : null;
  return queryOptions({
    queryKey: [
      'usage',
      name,
      connectionId(connection),
      view && usageViewKey(view),
      measured && { previous: measured.previous, current: measured.current },
    ],
    queryFn:
      isQueryable(view) && measured
        ? async ({ signal }): Promise<{ previous: Sums; current: Sums | null }> => {
            const [previous, current] = await Promise.all([
              rangeSums(connection, view, measured.previous, signal),
              comparesPartOfView(measured)
                ? rangeSums(connection, view, measured.current, signal)
                : null,
            ]);
            return { previous, current };
          }
        : skipToken,
  });
}

export function useComparisonTotals(view: ResolvedUsageView | null, plan: ComparisonPlan | null) {
  const { connection } = useUsageConnection();
  return useQuery(
    measuredComparisonQueryOptions('comparison-totals', getRangeTotals, connection, view, plan),
  );
}
