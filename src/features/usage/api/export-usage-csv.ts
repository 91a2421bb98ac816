import { usageExportFilename } from '@contracts/usage/export-filename';
import { showsServerBuckets } from '../model/fetch-windows';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { concatCsvFiles, usageMatrixToCsv, UTF8_BOM } from '../model/usage-csv';
import type { UsageMatrix } from '../model/usage-matrix';
import { GRANULAR_USAGE_PATH, windowSearchParams } from './get-usage-matrix';
import { getFromUsageApi } from './usage-api-client';
import type { UsageConnection } from './usage-connection';

/**
 * The console's export fills a project's workspace (the API's `include_context=true`; the API's
 * default is spec 2.3's file, without it): the table on screen shows it beside each project, and
 * project names repeat across workspaces, so a file without it cannot tell them apart. The
 * columns stay the spec's, so a script reading the spec's file reads this one too.
 */
export const EXPORT_INCLUDES_CONTEXT = true;

export interface ExportProgress {
  done: number;
  total: number;
}

export interface UsageExport {
  filename: string;
  blob: Blob;
  source: 'server' | 'browser';
}

/**
 * The CSV of exactly what the screen shows. When the screen shows the server's own buckets,
 * the server's export files are fetched window by window (with progress) and joined under one
 * header; when the screen re-buckets, the same columns are built from the screen's data.
 */
export async function exportUsageCsv(
  connection: UsageConnection,
  view: ResolvedUsageView,
  matrix: UsageMatrix,
  onProgress: (progress: ExportProgress) => void,
  signal?: AbortSignal,
  /** Adds the estimated cost column: the file is then built in the browser from the screen. */
  costPricePer1k?: number,
): Promise<UsageExport> {
  const filename = usageExportFilename(view.range.startMs, view.range.endMs, view.groupBy);
  if (
    costPricePer1k !== undefined ||
    view.aggregation === 'calendar-month' ||
    !showsServerBuckets(view.windows, view.stride)
  ) {
    onProgress({ done: 1, total: 1 });
    const csv = usageMatrixToCsv(matrix, view.groupBy, {
      pricePer1k: costPricePer1k,
      includeContext: EXPORT_INCLUDES_CONTEXT,
    });
    return { filename, blob: csvBlob(csv), source: 'browser' };
  }
  const files: string[] = [];
  onProgress({ done: 0, total: view.windows.length });
  for (const window of view.windows) {
    const params = windowSearchParams(window, view.groupBy, view.workspaceIds, {
      ...view,
      includeContext: EXPORT_INCLUDES_CONTEXT,
    });
    const response = await getFromUsageApi(
      connection,
      `${GRANULAR_USAGE_PATH}/export`,
      params,
      signal,
    );
    files.push(await response.text());
    onProgress({ done: files.length, total: view.windows.length });
  }
  return { filename, blob: csvBlob(concatCsvFiles(files)), source: 'server' };
}

function csvBlob(csv: string): Blob {
  return new Blob([UTF8_BOM, csv], { type: 'text/csv;charset=utf-8' });
}

/** Hands the file to the browser's download (an `<a download>` cannot send `x-api-key`). */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled, or some browsers cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
