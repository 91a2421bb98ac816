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
 * The JSON response body (spec 2.1) as UTF-8 bytes, rendered inside DuckDB: no record becomes
 * a JS object or string, so a 65k-record answer costs one byte copy instead of 260k converted
 * values.
 */
export async function queryUsageJson(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
): Promise<Uint8Array<ArrayBuffer>> {
  const head = Buffer.from(`{"stride":${JSON.stringify(plan.stride)},"usage":[`);
  const tail = Buffer.from(']}');
  const comma = Buffer.from(',');
  const query = buildUsageJsonSql(plan);
  if (!query) return Buffer.concat([head, tail]);
  const reader = await connection.runAndReadAll(query.sql, query.values);
  const parts: Uint8Array[] = [head];
  for (const [bucket] of reader.getRowsJS()) {
    if (!(bucket instanceof Uint8Array)) continue;
    if (parts.length > 1) parts.push(comma);
    parts.push(bucket);
  }
  parts.push(tail);
  return Buffer.concat(parts);
}

/** CSV lines per string DuckDB hands over while streaming an export. */
const CSV_LINES_PER_CHUNK = 4096;

/**
 * The CSV data lines of an export as UTF-8 bytes, rendered inside DuckDB, a block of whole
 * lines at a time.
 * The query starts before this resolves, so SQL errors surface here and not mid-stream.
 */
export async function streamUsageCsv(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
): Promise<AsyncGenerator<Uint8Array>> {
  const query = buildUsageCsvSql(plan, CSV_LINES_PER_CHUNK);
  const result = query ? await connection.stream(query.sql, query.values) : undefined;
  return (async function* chunks() {
    if (!result) return;
    for await (const rows of result.yieldRowsJs()) {
      for (const [chunk] of rows) if (chunk instanceof Uint8Array) yield chunk;
    }
  })();
}
