import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { usageResponseGuard } from '@contracts/response-guards';
import type { TraceTier } from '@contracts/usage/usage-schema';
import { monthAround } from '../model/calendar-month-grid';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { endOfTodayUtc } from '../model/time-range';
import { GRANULAR_USAGE_PATH, windowSearchParams } from './get-usage-matrix';
import { getFromUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

const DAILY = { days: 1, hours: 0 };

/**
 * Traces per UTC day of the current month to date, over the view's workspaces (and its tier,
 * when it shows one): one request.
 */
export async function getMonthToDate(
  connection: UsageConnection,
  workspaceIds: string[],
  nowMs: number,
  signal?: AbortSignal,
  traceTier: TraceTier | null = null,
): Promise<Map<number, number>> {
  const window = {
    startMs: monthAround(nowMs).startMs,
    endMs: endOfTodayUtc(nowMs),
    serverStride: DAILY,
  };
  const params = windowSearchParams(window, 'workspace', workspaceIds, { traceTier });
  const response = await getFromUsageApi(connection, GRANULAR_USAGE_PATH, params, signal);
  const { usage } = usageResponseGuard(await response.json());
  const byDay = new Map<number, number>();
  for (const record of usage) {
    const dayMs = Date.parse(record.time_bucket);
    byDay.set(dayMs, (byDay.get(dayMs) ?? 0) + record.traces);
  }
  return byDay;
}

/** Only asked for when the view reaches today: a projection of a past range means nothing. */
export function monthToDateQueryOptions(
  connection: UsageConnection,
  view: ResolvedUsageView | null,
  nowMs: number,
) {
  const reachesToday = view !== null && view.range.endMs === endOfTodayUtc(nowMs);
  const workspaceIds = view?.workspaceIds ?? [];
  const traceTier = view?.traceTier ?? null;
  return queryOptions({
    queryKey: [
      'usage',
      'month-to-date',
      connectionId(connection),
      workspaceIds,
      traceTier,
      monthAround(nowMs).startMs,
    ],
    queryFn:
      reachesToday && workspaceIds.length > 0
        ? ({ signal }) => getMonthToDate(connection, workspaceIds, nowMs, signal, traceTier)
        : skipToken,
  });
}

export function useMonthToDate(view: ResolvedUsageView | null, nowMs: number) {
  const { connection } = useUsageConnection();
  return useQuery(monthToDateQueryOptions(connection, view, nowMs));
}
