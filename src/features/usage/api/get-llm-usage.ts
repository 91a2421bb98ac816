import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { llmUsageResponseSchema, type LlmUsageRecord } from '@contracts/usage/llm-usage-schema';
import { buildLlmMatrices, type LlmMatrices } from '../model/llm-matrices';
import {
  createViewGrid,
  isQueryable,
  usageViewKey,
  type ResolvedUsageView,
} from '../model/resolve-usage-view';
import { GRANULAR_USAGE_PATH, windowSearchParams } from './get-usage-matrix';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

/** The query string of one window of the LLM tab (`kind=llm_usage`), by the view's group or model. */
export function llmSearchParams(
  view: ResolvedUsageView,
  window: ResolvedUsageView['windows'][number],
  byModel = false,
) {
  const params = windowSearchParams(window, view.groupBy, view.workspaceIds, {
    kind: 'llm_usage',
  });
  if (byModel) params.set('group_by', 'model');
  return params;
}

/** The records of one window of the view (any range: the comparison asks for its own). */
export async function getLlmRecords(
  connection: UsageConnection,
  view: ResolvedUsageView,
  window: ResolvedUsageView['windows'][number],
  byModel: boolean,
  signal?: AbortSignal,
): Promise<LlmUsageRecord[]> {
  const params = llmSearchParams(view, window, byModel);
  const response = await getFromUsageApi(connection, GRANULAR_USAGE_PATH, params, signal);
  return llmUsageResponseSchema.parse(await response.json()).usage;
}

async function getRecords(
  connection: UsageConnection,
  view: ResolvedUsageView,
  byModel: boolean,
  signal?: AbortSignal,
): Promise<LlmUsageRecord[]> {
  const pages = await Promise.all(
    view.windows.map((window) => getLlmRecords(connection, view, window, byModel, signal)),
  );
  return pages.flat();
}

export interface LlmUsageData {
  matrices: LlmMatrices;
  /** The same range by model: the unpriced card names the models. */
  byModel: LlmUsageRecord[];
}

/** Every window of the view in parallel, by the view's group and by model. */
export async function getLlmUsage(
  connection: UsageConnection,
  view: ResolvedUsageView,
  signal?: AbortSignal,
): Promise<LlmUsageData> {
  const [records, byModel] = await Promise.all([
    getRecords(connection, view, false, signal),
    getRecords(connection, view, true, signal),
  ]);
  return { matrices: buildLlmMatrices(records, createViewGrid(view), view.groupBy), byModel };
}

/** The key holds the resolved view as the LLM tab asks for it (no tier). */
export function llmUsageQueryOptions(connection: UsageConnection, view: ResolvedUsageView | null) {
  return queryOptions({
    queryKey: [
      'usage',
      'llm',
      connectionId(connection),
      view && {
        ...usageViewKey(view),
        traceTier: null,
        stride: view.stride,
        aggregation: view.aggregation,
      },
    ],
    queryFn: isQueryable(view) ? ({ signal }) => getLlmUsage(connection, view, signal) : skipToken,
    // Keep the last chart on screen while the next range loads, instead of a spinner.
    placeholderData: keepPreviousData,
  });
}

export function useLlmUsage(view: ResolvedUsageView | null) {
  const { connection } = useUsageConnection();
  return useQuery(llmUsageQueryOptions(connection, view));
}
