import { usageCsvColumns } from '@contracts/usage/usage-schema';
import { formatCsvRow } from '@contracts/usage/csv';
import { usageExportFilename } from '@contracts/usage/export-filename';
import type { ExportWindow } from '../model/export-windows';
import type { UsageQueryPlan } from '../model/usage-plan';
import { exportUsage } from '../queries/export-usage';
import type { UsageStore } from '../store/usage-store';
import type { UsageRenderer } from './render-usage';

const encoder = new TextEncoder();

/** The data lines of an export: each window's matrix rendered in blocks as it is read. */
async function* exportBlocks(
  windows: AsyncGenerator<ExportWindow>,
  renderer: UsageRenderer,
  includeContext: boolean,
): AsyncGenerator<Uint8Array> {
  for await (const { plan, matrix } of windows) {
    yield* renderer.csv(plan, matrix, { includeContext });
  }
}

export interface CsvExportOptions {
  /** Fill the group's context columns too (`include_context=true`, beyond spec 2.3). */
  includeContext?: boolean;
  /** Cells per backend read (tests use small windows to cross window edges). */
  windowCells?: number;
}

/**
 * Streams the export as CSV (spec 2.3): the header, then the data lines (only `group_by`'s
 * columns filled, and its context with `includeContext`), pulled a block at a
 * time as the client reads. The first window is queried before the response starts, so a failing
 * query is a 500 and not a cut-off file. What the backend holds for the export is released when
 * the stream ends, fails or is cancelled by the client (a query under way is interrupted).
 */
export async function csvExportResponse(
  backend: UsageStore,
  plan: UsageQueryPlan,
  renderer: UsageRenderer,
  { includeContext = false, windowCells }: CsvExportOptions = {},
): Promise<Response> {
  const abort = new AbortController();
  const windows = exportUsage(backend.facts, plan, { windowCells, signal: abort.signal });
  const blocks = exportBlocks(windows, renderer, includeContext);
  const release = () => blocks.return(undefined).catch(() => undefined);
  let first: IteratorResult<Uint8Array>;
  try {
    first = await blocks.next();
  } catch (error) {
    await release();
    throw error;
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(formatCsvRow(usageCsvColumns(plan.groupBy))));
      if (!first.done) controller.enqueue(first.value);
    },
    async pull(controller) {
      try {
        const next = first.done ? first : await blocks.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(next.value);
      } catch (error) {
        await release();
        controller.error(error);
      }
    },
    async cancel() {
      abort.abort();
      await release();
    },
  });
  const filename = usageExportFilename(plan.grid.startMs, plan.grid.endMs, plan.groupBy);
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
    },
  });
}
