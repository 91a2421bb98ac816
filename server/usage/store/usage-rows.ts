import type { DuckDBConnection } from '@duckdb/node-api';
import type { GroupBy, UsageDimensions } from '@/contracts/usage';
import { buildUsageSql, type UsageQueryPlan } from './usage-query-sql';

/** One result row of a usage query, as the SQL returns it. */
export interface UsageRow {
  bucketMs: number;
  dimId: string | null;
  label: string | null;
  traces: number;
}

/** Dimension fields of a row for `groupBy` (spec 2.1); unknown values are left out. */
export function toDimensions(groupBy: GroupBy, row: UsageRow): UsageDimensions {
  const { dimId: id, label } = row;
  const fields: Record<GroupBy, UsageDimensions> = {
    workspace: { workspace_id: id, workspace_name: label },
    project: { project_id: id, project_name: label },
    user: { user_id: id, user_email: label },
    api_key: { api_key_short_key: label },
  };
  return Object.fromEntries(
    Object.entries(fields[groupBy]).filter(([, value]) => value !== null && value !== undefined),
  );
}

function toRow(values: readonly unknown[]): UsageRow {
  const [bucketMs, dimId, label, traces] = values;
  return {
    bucketMs: Number(bucketMs),
    dimId: typeof dimId === 'string' ? dimId : null,
    label: typeof label === 'string' ? label : null,
    traces: Number(traces),
  };
}

/** All rows of a usage query (JSON endpoint: at most a few thousand buckets x dimensions). */
export async function queryUsageRows(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
): Promise<UsageRow[]> {
  const query = buildUsageSql(plan);
  if (!query) return [];
  const reader = await connection.runAndReadAll(query.sql, query.values);
  return reader.getRowsJS().map(toRow);
}

/**
 * The same rows, one DuckDB chunk (up to 2048 rows) at a time, for streaming exports. The
 * query starts before this resolves, so SQL errors surface here and not mid-stream.
 */
export async function streamUsageRows(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
): Promise<AsyncGenerator<UsageRow[]>> {
  const query = buildUsageSql(plan);
  const result = query ? await connection.stream(query.sql, query.values) : undefined;
  return (async function* chunks() {
    if (!result) return;
    for await (const rows of result.yieldRowsJs()) yield rows.map(toRow);
  })();
}
