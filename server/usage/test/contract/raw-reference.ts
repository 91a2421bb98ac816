import {
  CSV_DIMENSION_COLUMNS,
  usageCsvColumns,
  type UsageCsvColumn,
  type UsageDimensions,
  type UsageResponse,
} from '@contracts/usage/usage-schema';
import { formatCsvRow } from '@contracts/usage/csv';
import { strideMs } from '@contracts/usage/stride';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import { toDimensions, type UsageRow } from '@server/usage/model/usage-rows';
import type { DuckDbStore } from '@server/usage/store/duckdb/connection';
import { queryUsageRows } from '@server/usage/store/duckdb/usage-rows';

/**
 * The answer computed the obvious way, which every backend is held to: rows read from raw
 * traces of a DuckDB store (a GROUP BY, no rollup), one JS object per record, formatted by
 * `JSON.stringify` / `formatCsvRow`.
 */
export function createRawReference(duck: DuckDbStore) {
  const rows = (plan: UsageQueryPlan): Promise<UsageRow[]> =>
    duck.withConnection((connection) => queryUsageRows(connection, plan));

  /** Each project's workspace, read straight from the tables (the reference's own lookup). */
  async function projectWorkspaces(): Promise<Map<string, { id: string; name: string }>> {
    const reader = await duck.withConnection((connection) =>
      connection.runAndReadAll(
        `SELECT p.id::VARCHAR, w.id::VARCHAR, w.display_name
          FROM projects p JOIN workspaces w ON w.id = p.workspace_id`,
      ),
    );
    return new Map(
      reader
        .getRowsJS()
        .map(([project, id, name]) => [String(project), { id: String(id), name: String(name) }]),
    );
  }

  async function json(plan: UsageQueryPlan, records?: UsageRow[]): Promise<string> {
    const workspaces = await projectWorkspaces();
    const body: UsageResponse = {
      stride: plan.grid.stride,
      usage: (records ?? (await rows(plan))).map((row) => ({
        time_bucket: new Date(row.bucketMs).toISOString(),
        dimensions: toDimensions(
          plan.groupBy,
          row,
          row.dimId === null ? undefined : workspaces.get(row.dimId),
        ),
        traces: row.traces,
      })),
    };
    return JSON.stringify(body);
  }

  function csvLine(
    plan: UsageQueryPlan,
    row: UsageRow,
    workspaces: Map<string, { id: string; name: string }>,
  ): string {
    const own: Partial<Record<UsageCsvColumn, keyof UsageDimensions>> =
      CSV_DIMENSION_COLUMNS[plan.groupBy];
    // A project row names its workspace in the file too, as on screen.
    const dims = toDimensions(
      plan.groupBy,
      row,
      row.dimId === null ? undefined : workspaces.get(row.dimId),
    );
    // Computed here, not by the grid under test: the next bucket's start, or the range's end.
    const end = Math.min(row.bucketMs + strideMs(plan.grid.stride), plan.grid.endMs);
    return formatCsvRow([
      new Date(row.bucketMs).toISOString(),
      new Date(end).toISOString(),
      ...usageCsvColumns(plan.groupBy)
        .slice(2, -1)
        .map((column) => {
          const field = own[column];
          return field ? dims[field] : undefined;
        }),
      row.traces,
    ]);
  }

  return {
    rows,
    json,
    /** The export's data lines (no header). */
    async csv(plan: UsageQueryPlan, records?: UsageRow[]): Promise<string> {
      const workspaces = await projectWorkspaces();
      return (records ?? (await rows(plan))).map((row) => csvLine(plan, row, workspaces)).join('');
    },
  };
}
