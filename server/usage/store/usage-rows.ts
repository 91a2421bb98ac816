import type { DuckDBConnection } from '@duckdb/node-api';
import type { GroupBy, UsageDimensions } from '@/contracts/usage';
import {
  buildUsageCsvSql,
  buildUsageJsonSql,
  buildUsageSql,
  type UsageQueryPlan,
} from './usage-query-sql';

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
 * The JSON response body (spec 2.1) as text, rendered inside DuckDB: no record becomes a JS
 * object, so a 65k-record answer costs one string instead of 260k converted values.
 */
export async function queryUsageJson(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
): Promise<string> {
  const head = `{"stride":${JSON.stringify(plan.stride)},"usage":[`;
  const query = buildUsageJsonSql(plan);
  if (!query) return `${head}]}`;
  const reader = await connection.runAndReadAll(query.sql, query.values);
  const usage = reader.getRowsJS()[0]?.[0];
  return `${head}${typeof usage === 'string' ? usage : ''}]}`;
}

/** CSV lines per string DuckDB hands over while streaming an export. */
const CSV_LINES_PER_CHUNK = 4096;

/**
 * The CSV data lines of an export, rendered inside DuckDB, a block of whole lines at a time.
 * The query starts before this resolves, so SQL errors surface here and not mid-stream.
 */
export async function streamUsageCsv(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
): Promise<AsyncGenerator<string>> {
  const query = buildUsageCsvSql(plan, CSV_LINES_PER_CHUNK);
  const result = query ? await connection.stream(query.sql, query.values) : undefined;
  return (async function* chunks() {
    if (!result) return;
    for await (const rows of result.yieldRowsJs()) {
      for (const [chunk] of rows) if (typeof chunk === 'string') yield chunk;
    }
  })();
}
