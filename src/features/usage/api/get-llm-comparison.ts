import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { strideForRange } from '@contracts/usage/stride';
import { sumLlmRecords, type LlmComparisonSums, type LlmPeriodSums } from '../model/llm-comparison';
import { comparesPartOfView, type ComparisonPlan } from '../model/measured-comparison';
import { isQueryable, usageViewKey, type ResolvedUsageView } from '../model/resolve-usage-view';
import type { TimeRange } from '../model/time-range';
import { getLlmRecords } from './get-llm-usage';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/** One range's LLM usage by the view's group: one request, at the stride the server picks. */
async function getRangeSums(
  connection: UsageConnection,
  view: ResolvedUsageView,
  range: TimeRange,
  signal?: AbortSignal,
): Promise<LlmPeriodSums> {
  const window = { ...range, serverStride: strideForRange(range.startMs, range.endMs) };
  const records = await getLlmRecords(connection, view, window, false, signal);
  return sumLlmRecords(records, view.groupBy);
}

/** Nothing is fetched for an unmeasured previous period: there is nothing to compare. */
export function llmComparisonQueryOptions(
  connection: UsageConnection,
  view: ResolvedUsageView | null,
  plan: ComparisonPlan | null,
) {
  const measured = plan?.kind === 'measured' ? plan : null;
  return queryOptions({
    queryKey: [
      'usage',
      'llm-comparison',
      connectionId(connection),
      view && { ...usageViewKey(view), traceTier: null },
      measured && { previous: measured.previous, current: measured.current },
    ],
    queryFn:
      isQueryable(view) && measured
        ? async ({ signal }): Promise<LlmComparisonSums> => {
            const [previous, current] = await Promise.all([
              getRangeSums(connection, view, measured.previous, signal),
              comparesPartOfView(measured)
                ? getRangeSums(connection, view, measured.current, signal)
                : null,
            ]);
            return { previous, current };
          }
        : skipToken,
  });
}

export function useLlmComparison(view: ResolvedUsageView | null, plan: ComparisonPlan | null) {
  const { connection } = useUsageConnection();
  return useQuery(llmComparisonQueryOptions(connection, view, plan));
}
