/** One bar of the stacked chart: the bucket's start and each drawn series' count. */
export type ChartRow = Record<string, number | undefined>;

/**
 * The chart's rows for `series` (each with values aligned with `buckets`) and the tallest stack.
 * Buckets from `futureFrom` on get no values: no bar rather than a zero that reads as an outage.
 */
export function chartRows(
  buckets: readonly number[],
  series: readonly { key: string; values: readonly number[] }[],
  futureFrom: number | null,
): { rows: ChartRow[]; max: number } {
  let max = 0;
  const rows = buckets.map((bucket, index) => {
    const row: ChartRow = { bucket };
    if (futureFrom !== null && index >= futureFrom) return row;
    let stack = 0;
    for (const item of series) {
      const value = item.values[index] ?? 0;
      row[item.key] = value;
      stack += value;
    }
    max = Math.max(max, stack);
    return row;
  });
  return { rows, max };
}
