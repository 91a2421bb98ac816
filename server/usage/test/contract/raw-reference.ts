import {
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

  /**
   * Spec 2.3: only the group's own cells; with `include_context=true`, a project's workspace
   * too, as the screen shows it. Written out here, not taken from the contracts under test.
   */
  const filled = (plan: UsageQueryPlan, includeContext: boolean): UsageCsvColumn[] => {
    const own: Record<UsageQueryPlan['groupBy'], UsageCsvColumn[]> = {
      workspace: ['Workspace ID', 'Workspace Name'],
      project: ['Project ID', 'Project Name'],
      user: ['User ID', 'User Email'],
      api_key: ['API Key Short Key'],
      trace_tier: ['Trace Tier'],
    };
    const context: UsageCsvColumn[] =
      includeContext && plan.groupBy === 'project' ? ['Workspace ID', 'Workspace Name'] : [];
    return [...context, ...own[plan.groupBy]];
  };
  const FIELD: Record<UsageCsvColumn, keyof UsageDimensions | null> = {
    'Time Bucket Start': null,
    'Time Bucket End': null,
    'Workspace ID': 'workspace_id',
    'Workspace Name': 'workspace_name',
    'Project ID': 'project_id',
    'Project Name': 'project_name',
    'User ID': 'user_id',
    'User Email': 'user_email',
    'API Key Short Key': 'api_key_short_key',
    'Trace Tier': 'trace_tier',
    Traces: null,
  };

  function csvLine(
    plan: UsageQueryPlan,
    row: UsageRow,
    workspaces: Map<string, { id: string; name: string }>,
    includeContext: boolean,
  ): string {
    const cells = filled(plan, includeContext);
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
          const field = FIELD[column];
          return field && cells.includes(column) ? dims[field] : undefined;
        }),
      row.traces,
    ]);
  }

  return {
    rows,
    json,
    /** The export's data lines (no header); `includeContext`: as with `include_context=true`. */
    async csv(
      plan: UsageQueryPlan,
      records?: UsageRow[],
      { includeContext = false } = {},
    ): Promise<string> {
      const workspaces = await projectWorkspaces();
      return (records ?? (await rows(plan)))
        .map((row) => csvLine(plan, row, workspaces, includeContext))
        .join('');
    },
    projectWorkspaces,
  };
}
