import type { DuckDBConnection } from '@duckdb/node-api';
import { USAGE_CSV_COLUMNS } from '@contracts/usage/usage-schema';
import { formatCsvRow } from '@contracts/usage/csv';
import { usageExportFilename } from '@contracts/usage/export-filename';
import type { DimensionCatalogs } from '../store/dimension-catalog';
import { bucketWindows, queryUsageMatrix } from '../store/usage-matrix';
import type { UsageQueryPlan } from '../store/usage-query-sql';
import type { UsageStore } from '../store/usage-store';
import { renderUsageCsv } from './render-usage';

const encoder = new TextEncoder();

/** Matrix cells (dimension values x buckets, 8 bytes each) one export window may hold: 16 MB. */
const EXPORT_WINDOW_CELLS = 2 ** 21;

/**
 * The data lines, one window of buckets at a time: each window is queried as a matrix and
 * rendered in blocks, so memory is bounded by the window (and by one block in flight), not by
 * the length of the export.
 */
async function* exportBlocks(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
  catalogs: DimensionCatalogs,
  windowCells: number,
): AsyncGenerator<Uint8Array> {
  // One read transaction for the whole export (closing the connection ends it), so every
  // window sees the snapshot the catalog was read from.
  await connection.run('BEGIN TRANSACTION');
  const catalog = await catalogs(connection, plan.groupBy);
  const values = catalog.ids.length + 1; // + the NULL id (ids the table lacks are rare)
  for (const window of bucketWindows(plan, values, windowCells)) {
    const matrix = await queryUsageMatrix(connection, window, catalog);
    yield* renderUsageCsv(window, matrix);
  }
}

/**
 * Streams the export as CSV (spec 2.3): the header, then the data lines, pulled a block at a
 * time as the client reads. The first window is queried before the response starts, so a failing
 * query is a 500 and not a cut-off file. The connection is released when the stream ends, fails
 * or is cancelled by the client.
 */
export async function csvExportResponse(
  store: UsageStore,
  plan: UsageQueryPlan,
  catalogs: DimensionCatalogs,
  windowCells = EXPORT_WINDOW_CELLS,
): Promise<Response> {
  const connection = await store.connect();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    connection.closeSync();
  };
  const blocks = exportBlocks(connection, plan, catalogs, windowCells);
  let first: IteratorResult<Uint8Array>;
  try {
    first = await blocks.next();
  } catch (error) {
    release();
    throw error;
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(formatCsvRow(USAGE_CSV_COLUMNS)));
      if (!first.done) controller.enqueue(first.value);
    },
    async pull(controller) {
      try {
        const next = first.done ? first : await blocks.next();
        if (next.done) {
          release();
          controller.close();
          return;
        }
        controller.enqueue(next.value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel() {
      if (!released) connection.interrupt();
      await blocks.return(undefined).catch(() => undefined);
      release();
    },
  });
  const filename = usageExportFilename(plan.startMs, plan.endMs, plan.groupBy);
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
    },
  });
}
