import { useQuery } from '@tanstack/react-query';
import { strideForRange } from '@contracts/usage/stride';
import { sumLlmRecords, type LlmPeriodSums } from '../model/llm-comparison';
import type { ComparisonPlan } from '../model/measured-comparison';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import type { TimeRange } from '../model/time-range';
import { measuredComparisonQueryOptions } from './get-comparison-totals';
import { getLlmRecords } from './get-llm-usage';
import { useUsageConnection, type UsageConnection } from './usage-connection';

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

export function useLlmComparison(view: ResolvedUsageView | null, plan: ComparisonPlan | null) {
  const { connection } = useUsageConnection();
  return useQuery(
    measuredComparisonQueryOptions('llm-comparison', getRangeSums, connection, view, plan),
  );
}
