import { USAGE_CSV_COLUMNS } from '@/contracts/usage';
import { formatCsvRow } from '@/lib/usage/csv';
import { usageExportFilename } from '@/lib/usage/export-filename';
import type { UsageQueryPlan } from '../store/usage-query-sql';
import { streamUsageCsv } from '../store/usage-rows';
import type { UsageStore } from '../store/usage-store';

const encoder = new TextEncoder();

/**
 * Streams the export as CSV (spec 2.3). DuckDB renders the lines (`buildUsageCsvSql`, the same
 * bytes as `formatCsvRow`) in blocks of a few thousand; the next block is read only when the
 * client has taken the previous one, so memory stays flat however long the file. The connection is
 * released when the stream ends, fails or is cancelled by the client.
 */
export async function csvExportResponse(
  store: UsageStore,
  plan: UsageQueryPlan,
): Promise<Response> {
  const connection = await store.connect();
  let chunks: AsyncGenerator<Uint8Array>;
  try {
    chunks = await streamUsageCsv(connection, plan);
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
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(formatCsvRow(USAGE_CSV_COLUMNS)));
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
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
      await chunks.return(undefined).catch(() => undefined);
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
