/** One bucket of the stacked chart: its start and the height of its stack (none: not yet). */
export interface ChartRow {
  bucket: number;
  total?: number;
}

/**
 * The chart's rows for `series` (each with values aligned with `buckets`) and the tallest stack.
 * The chart draws one bar per bucket and splits it into the series' segments itself, so a row
 * holds only the stack's height. Buckets from `futureFrom` on get none: no bar rather than a
 * zero that reads as an outage.
 */
export function chartRows(
  buckets: readonly number[],
  series: readonly { values: readonly number[] }[],
  futureFrom: number | null,
): { rows: ChartRow[]; max: number } {
  let max = 0;
  const rows = buckets.map((bucket, index): ChartRow => {
    if (futureFrom !== null && index >= futureFrom) return { bucket };
    let total = 0;
    for (const item of series) total += item.values[index] ?? 0;
    max = Math.max(max, total);
    return { bucket, total };
  });
  return { rows, max };
}
