import { CSV_DIMENSION_COLUMNS, USAGE_CSV_COLUMNS, type UsageCsvColumn } from '@/contracts/usage';
import { formatCsvRow, type CsvCell } from '@/lib/usage/csv';
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
  const release = () => connection.closeSync();
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
        controller.enqueue(encoder.encode(next.value.map((row) => toCsvLine(plan, row)).join('')));
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel() {
      connection.interrupt();
      await rows.return(undefined);
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

function toCsvLine(plan: UsageQueryPlan, row: UsageRow): string {
  const dimensions = toDimensions(plan.groupBy, row);
  const filled: Partial<Record<UsageCsvColumn, string>> = {};
  for (const [column, field] of Object.entries(CSV_DIMENSION_COLUMNS[plan.groupBy])) {
    const value = dimensions[field];
    if (typeof value === 'string') filled[column as UsageCsvColumn] = value;
  }
  const end = bucketEnd(row.bucketMs, plan.endMs, plan.stride);
  const cells: CsvCell[] = USAGE_CSV_COLUMNS.map((column) => {
    if (column === 'Time Bucket Start') return new Date(row.bucketMs).toISOString();
    if (column === 'Time Bucket End') return new Date(end).toISOString();
    if (column === 'Traces') return row.traces;
    return filled[column];
  });
  return formatCsvRow(cells);
}
