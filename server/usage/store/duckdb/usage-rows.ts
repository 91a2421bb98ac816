import type { DuckDBConnection } from '@duckdb/node-api';
import type { UsageRow } from '@server/usage/model/usage-rows';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import { buildRawUsageSql } from './usage-facts-sql';

function toRow(values: readonly unknown[]): UsageRow {
  const [bucketMs, dimId, label, traces] = values;
  return {
    bucketMs: Number(bucketMs),
    dimId: typeof dimId === 'string' ? dimId : null,
    label: typeof label === 'string' ? label : null,
    traces: Number(traces),
  };
}

/**
 * All records of a usage query, one JS object each, computed the obvious way (a GROUP BY over
 * raw traces): the reference the tests hold the API to, and the benchmark's baseline. The API
 * reads `queryUsageMatrix` instead.
 */
export async function queryUsageRows(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
): Promise<UsageRow[]> {
  const query = buildRawUsageSql(plan);
  if (!query) return [];
  const reader = await connection.runAndReadAll(query.sql, query.values);
  return reader.getRowsJS().map(toRow);
}
