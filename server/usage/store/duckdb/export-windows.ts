import type { DuckDBConnection } from '@duckdb/node-api';
import { bucketsOverData } from '@server/usage/model/data-extent';
import { exportWindowGrids, type ExportWindow } from '@server/usage/model/export-windows';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { DimensionCatalogs } from './dimension-catalogs';
import { readDataExtent } from './read-data-extent';
import { queryUsageMatrix } from './read-usage-matrix';

/**
 * An export's matrices, one window of whole buckets at a time (`exportWindowGrids`). Runs in one
 * read transaction (closing the connection ends it), so every window sees the snapshot the
 * catalog was read from.
 */
export async function* exportWindows(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
  catalogs: DimensionCatalogs,
  windowCells?: number,
): AsyncGenerator<ExportWindow> {
  await connection.run('BEGIN TRANSACTION');
  const catalog = await catalogs(connection, plan.groupBy);
  const extent = await readDataExtent(connection, plan.groupBy);
  // Only the buckets that can hold data are queried (the others would give no line).
  const grid = bucketsOverData(plan.grid, extent);
  if (!grid) return;
  for (const windowGrid of exportWindowGrids(grid, catalog.ids.length + 1, windowCells)) {
    const window = { ...plan, grid: windowGrid };
    yield { plan: window, matrix: await queryUsageMatrix(connection, window, catalog, extent) };
  }
}
