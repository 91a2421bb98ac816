import type { DuckDBConnection } from '@duckdb/node-api';
import { USAGE_CSV_COLUMNS } from '@/contracts/usage';
import { formatCsvRow } from '@/lib/usage/csv';
import { usageExportFilename } from '@/lib/usage/export-filename';
import { bucketWindows, queryUsageMatrix } from '../store/usage-matrix';
import { buildDimensionCountSql, type UsageQueryPlan } from '../store/usage-query-sql';
import type { UsageStore } from '../store/usage-store';
import { renderUsageCsv } from './render-usage';

const encoder = new TextEncoder();

/** Matrix cells (dimension values x buckets, 8 bytes each) one export window may hold: 16 MB. */
export const EXPORT_WINDOW_CELLS = 2 ** 21;

/**
 * The data lines, one window of buckets at a time: each window is queried as a matrix and
 * rendered in blocks, so memory is bounded by the window (and by one block in flight), not by
 * the length of the export.
 */
async function* exportBlocks(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
  windowCells: number,
): AsyncGenerator<Uint8Array> {
  const counted = await connection.runAndReadAll(buildDimensionCountSql(plan.groupBy));
  const values = Number(counted.getRowsJS()[0]?.[0] ?? 0) + 1; // + the NULL value
  for (const window of bucketWindows(plan, values, windowCells)) {
    const matrix = await queryUsageMatrix(connection, window);
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
  windowCells = EXPORT_WINDOW_CELLS,
): Promise<Response> {
  const connection = await store.connect();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    connection.closeSync();
  };
  const blocks = exportBlocks(connection, plan, windowCells);
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
