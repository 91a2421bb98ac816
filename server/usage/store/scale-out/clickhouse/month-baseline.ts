import type { ClickHouseClient } from '@clickhouse/client';
import {
  keyOf,
  type Counts,
  type MonthBaseline,
} from '@server/usage/store/scale-out/limits/month-counters';
import { INSERT_TIMEOUT_MS, tsvRows, uuidLiteral } from './client';

/**
 * Traces stored in ClickHouse per (workspace, UTC month), all and long-lived, from the tiered
 * daily rollup: what a month's counter starts from when no claim has counted it yet (the seed,
 * traces from before counters).
 */
export function createMonthBaseline(client: ClickHouseClient): MonthBaseline {
  return async (keys) => {
    const counts = new Map<string, Counts>();
    if (keys.length === 0) return counts;
    const pairs = keys
      .map((key) => `(${uuidLiteral(key.workspaceId)}, toDate('${key.month}'))`)
      .join(', ');
    const rows = await tsvRows(
      client,
      `SELECT toString(workspace_id), toString(toStartOfMonth(day)), sum(traces),
         sumIf(traces, tier = 1)
       FROM usage_daily_tiered
       WHERE grouping = 'workspace' AND (workspace_id, toStartOfMonth(day)) IN (${pairs})
       GROUP BY workspace_id, toStartOfMonth(day)`,
      // Read inside the claim's transaction, on ingestion's path: bounded as its insert is.
      INSERT_TIMEOUT_MS,
    );
    for (const [workspaceId = '', month = '', traces = '0', longlived = '0'] of rows) {
      counts.set(keyOf({ workspaceId, month }), {
        traces: Number(traces),
        longlived: Number(longlived),
      });
    }
    return counts;
  };
}
