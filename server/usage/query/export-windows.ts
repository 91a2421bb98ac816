import type { DuckDBConnection } from '@duckdb/node-api';
import type { DimensionCatalogs } from '../store/dimension-catalog';
import { bucketsOverData, readDataExtent } from './data-extent';
import type { UsageQueryPlan } from './usage-facts-sql';
import { queryUsageMatrix, type UsageAnswer } from './usage-matrix';

/** Matrix cells (dimension values x buckets, 8 bytes each) one export window may hold: 16 MB. */
const EXPORT_WINDOW_CELLS = 2 ** 21;

/** One window of an export: a plan over whole buckets of the export's grid, and its matrix. */
export type ExportWindow = UsageAnswer;

/**
 * An export's matrices, one window of whole buckets at a time, each at most `windowCells`
 * (values x buckets) large, so memory is bounded by a window and not by the length of the export.
 * Bucket numbers restart at 0 in each window. Runs in one read transaction (closing the
 * connection ends it), so every window sees the snapshot the catalog was read from.
 */
export async function* exportWindows(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
  catalogs: DimensionCatalogs,
  windowCells = EXPORT_WINDOW_CELLS,
): AsyncGenerator<ExportWindow> {
  await connection.run('BEGIN TRANSACTION');
  const catalog = await catalogs(connection, plan.groupBy);
  const extent = await readDataExtent(connection, plan.groupBy);
  // Only the buckets that can hold data are queried (the others would give no line).
  const grid = bucketsOverData(plan.grid, extent);
  if (!grid) return;
  const values = catalog.ids.length + 1; // + the NULL id (ids the table lacks are rare)
  const size = Math.max(1, Math.floor(windowCells / values));
  for (let first = 0; first < grid.count; first += size) {
    const window = { ...plan, grid: grid.window(first, size) };
    yield { plan: window, matrix: await queryUsageMatrix(connection, window, catalog, extent) };
  }
}
