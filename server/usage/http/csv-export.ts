import {
  CSV_DIMENSION_COLUMNS,
  USAGE_CSV_COLUMNS,
  type UsageCsvColumn,
  type UsageDimensions,
} from '@/contracts/usage';
import { formatCsvCell, formatCsvRow } from '@/lib/usage/csv';
import { usageExportFilename } from '@/lib/usage/export-filename';
import { bucketEnd } from '@/lib/usage/stride';
import type { UsageQueryPlan } from '../store/usage-query-sql';
import { streamUsageRows, toDimensions, type UsageRow } from '../store/usage-rows';
import type { UsageStore } from '../store/usage-store';

const encoder = new TextEncoder();

/**
 * Streams the export as CSV (spec 2.3): one DuckDB chunk is read only when the client has
 * taken the previous one, so memory stays flat however long the file. The connection is
 * released when the stream ends, fails or is cancelled by the client.
 */
export async function csvExportResponse(
  store: UsageStore,
  plan: UsageQueryPlan,
): Promise<Response> {
  const connection = await store.connect();
  let rows: AsyncGenerator<UsageRow[]>;
  try {
    rows = await streamUsageRows(connection, plan);
  } catch (error) {
    connection.closeSync();
    throw error;
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    connection.closeSync();
  };
  const formatLine = createCsvLineFormatter(plan);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(formatCsvRow(USAGE_CSV_COLUMNS)));
    },
    async pull(controller) {
      try {
        const next = await rows.next();
        if (next.done) {
          release();
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.map(formatLine).join('')));
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel() {
      if (!released) connection.interrupt();
      await rows.return(undefined).catch(() => undefined);
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

/**
 * Formats rows of one export. Equivalent to `formatCsvRow` over the ten columns, but the
 * bucket's two time cells are formatted once per bucket and the empty dimension columns are
 * fixed per `group_by`: exports are long, and this loop is their hot path.
 */
function createCsvLineFormatter(plan: UsageQueryPlan): (row: UsageRow) => string {
  const dimensionColumns = USAGE_CSV_COLUMNS.slice(2, 9);
  const own: Partial<Record<UsageCsvColumn, keyof UsageDimensions>> =
    CSV_DIMENSION_COLUMNS[plan.groupBy];
  let bucketMs = Number.NaN;
  let timeCells = '';
  return (row) => {
    if (row.bucketMs !== bucketMs) {
      bucketMs = row.bucketMs;
      const end = bucketEnd(bucketMs, plan.endMs, plan.stride);
      timeCells = `${formatCsvCell(new Date(bucketMs).toISOString())},${formatCsvCell(new Date(end).toISOString())}`;
    }
    const dimensions = toDimensions(plan.groupBy, row);
    const cells = dimensionColumns.map((column) => {
      const field = own[column];
      return field ? formatCsvCell(dimensions[field]) : '';
    });
    return `${timeCells},${cells.join(',')},${formatCsvCell(row.traces)}\r\n`;
  };
}
