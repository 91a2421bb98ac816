import type { ClickHouseClient } from '@clickhouse/client';
import {
  targetKeyOf,
  type TargetBaseline,
} from '@server/usage/store/scale-out/limits/target-counters';
import { INSERT_TIMEOUT_MS, tsvRows, uuidLiteral } from './client';

/**
 * Traces stored in ClickHouse per (project or user, UTC month), every workspace's, from the daily
 * rollup's `project` and `user` groupings: what a target's counter starts from when no claim has
 * counted it yet.
 */
export function createTargetBaseline(client: ClickHouseClient): TargetBaseline {
  return async (keys) => {
    const counts = new Map<string, number>();
    if (keys.length === 0) return counts;
    const tuples = keys
      .map((key) => `('${key.scope}', ${uuidLiteral(key.targetId)}, toDate('${key.month}'))`)
      .join(', ');
    const rows = await tsvRows(
      client,
      `SELECT grouping, toString(dim_id), toString(toStartOfMonth(day)), sum(traces)
       FROM usage_daily
       WHERE grouping IN ('project', 'user') AND has_dim = 1
         AND (grouping, dim_id, toStartOfMonth(day)) IN (${tuples})
       GROUP BY grouping, dim_id, toStartOfMonth(day)`,
      // Read inside the claim's transaction, on ingestion's path: bounded as its insert is.
      INSERT_TIMEOUT_MS,
    );
    for (const [scope = '', targetId = '', month = '', traces = '0'] of rows) {
      const key = { scope: scope === 'user' ? 'user' : 'project', targetId, month } as const;
      counts.set(targetKeyOf(key), Number(traces));
    }
    return counts;
  };
}
