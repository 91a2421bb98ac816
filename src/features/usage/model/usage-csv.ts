import {
  csvFilledColumns,
  USAGE_CSV_COLUMNS,
  type GroupBy,
  type UsageCsvColumn,
} from '@contracts/usage/usage-schema';
import { formatCsvRow, type CsvCell } from '@contracts/usage/csv';
import { estimateCost } from './cost-estimate';
import type { UsageMatrix } from './usage-matrix';

/** Excel reads a client-built CSV as UTF-8 only with a byte-order mark. */
export const UTF8_BOM = '\uFEFF';

/** The optional last column of a client-built export: dollars at the screen's price. */
export const ESTIMATED_COST_COLUMN = 'Estimated Cost USD (estimate)';

/**
 * The screen's buckets as the export's CSV (spec 2.3), built in the browser with the same
 * escaping as the server: used when the screen re-buckets, so the file matches what is shown.
 * Rows: bucket by bucket, groups in label order, zero counts omitted (as the API does). With
 * `pricePer1k`, an eleventh column holds each row's estimated cost (4 decimals, no rounding to
 * cents that would not add up); `includeContext` fills the group's context columns, as the
 * API's `include_context=true` does.
 */
export function usageMatrixToCsv(
  matrix: UsageMatrix,
  groupBy: GroupBy,
  options: { pricePer1k?: number; includeContext?: boolean } = {},
): string {
  const { pricePer1k, includeContext } = options;
  const dimensionColumns: Partial<Record<UsageCsvColumn, string>> = csvFilledColumns(groupBy, {
    includeContext,
  });
  const series = [...matrix.series].sort((a, b) => a.label.localeCompare(b.label));
  const header: string[] = [...USAGE_CSV_COLUMNS];
  if (pricePer1k !== undefined) header.push(ESTIMATED_COST_COLUMN);
  const lines = [formatCsvRow(header)];
  matrix.buckets.forEach((startMs, index) => {
    const endMs = matrix.grid.end(index);
    for (const item of series) {
      const traces = matrix.values.get(item.key)?.[index] ?? 0;
      if (traces === 0) continue;
      const cells: CsvCell[] = USAGE_CSV_COLUMNS.map((column) => {
        if (column === 'Time Bucket Start') return new Date(startMs).toISOString();
        if (column === 'Time Bucket End') return new Date(endMs).toISOString();
        if (column === 'Traces') return traces;
        const field = dimensionColumns[column];
        return field ? (item.dimensions as Record<string, string | null | undefined>)[field] : '';
      });
      if (pricePer1k !== undefined) {
        cells.push(Number(estimateCost(traces, pricePer1k).toFixed(4)));
      }
      lines.push(formatCsvRow(cells));
    }
  });
  return lines.join('');
}

/** Joins export files of consecutive windows into one: the first header, every data row. */
export function concatCsvFiles(files: readonly string[]): string {
  return files
    .map((file, index) => {
      const text = file.startsWith(UTF8_BOM) ? file.slice(1) : file;
      if (index === 0) return text.endsWith('\n') || text === '' ? text : `${text}\r\n`;
      const firstBreak = text.indexOf('\n');
      const body = firstBreak === -1 ? '' : text.slice(firstBreak + 1);
      return body === '' || body.endsWith('\n') ? body : `${body}\r\n`;
    })
    .join('');
}
