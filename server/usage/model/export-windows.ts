import type { BucketGrid } from '@contracts/usage/bucket-grid';
import type { UsageAnswer } from './usage-matrix';

/** Matrix cells (dimension values x buckets, 8 bytes each) one export window may hold: 16 MB. */
export const EXPORT_WINDOW_CELLS = 2 ** 21;

/** One window of an export: a plan over whole buckets of the export's grid, and its matrix. */
export type ExportWindow = UsageAnswer;

/**
 * The windows of an export over `grid` (already cut to the buckets that can hold data): whole
 * buckets, each window at most `windowCells` (values x buckets) large, so memory is bounded by a
 * window and not by the length of the export. Bucket numbers restart at 0 in each window.
 * `values` is the catalog's size (+ 1 for the NULL id; ids the table lacks are rare).
 */
export function* exportWindowGrids(
  grid: BucketGrid,
  values: number,
  windowCells = EXPORT_WINDOW_CELLS,
): Generator<BucketGrid> {
  const size = Math.max(1, Math.floor(windowCells / values));
  for (let first = 0; first < grid.count; first += size) yield grid.window(first, size);
}
