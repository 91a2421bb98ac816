import { formatCount } from '@/lib/format';
import type { UsageMatrix, UsageSeries } from './usage-matrix';

export const OTHER_KEY = '__other__';

export interface ChartSeries extends UsageSeries {
  /** Traces per bucket, aligned with `matrix.buckets`. */
  values: number[];
  total: number;
}

/** Groups ordered by total, largest first; ties by label so the order never flickers. */
export function rankSeries(matrix: UsageMatrix): UsageSeries[] {
  return [...matrix.series].sort(
    (a, b) =>
      (matrix.totals.get(b.key) ?? 0) - (matrix.totals.get(a.key) ?? 0) ||
      a.label.localeCompare(b.label),
  );
}

/**
 * The chart's series: the top `limit` groups, plus "Other" holding the exact remainder of each
 * bucket (bucket total minus the top groups), so the stacks always add up to the real totals.
 * No "Other" when every group fits. `rankBy` picks the top groups by another matrix of the same
 * grouping (charts drawn side by side under one legend).
 */
export function topSeriesWithOther(
  matrix: UsageMatrix,
  limit = 10,
  rankBy: UsageMatrix = matrix,
): ChartSeries[] {
  // Charts that share a legend rank by one matrix, so a group keeps its place and colour.
  const order = new Map(rankSeries(rankBy).map((series, index) => [series.key, index]));
  const ranked = rankSeries(matrix).sort(
    (a, b) => (order.get(a.key) ?? order.size) - (order.get(b.key) ?? order.size),
  );
  const top = ranked.slice(0, limit).map((series) => ({
    ...series,
    values: matrix.values.get(series.key) ?? [],
    total: matrix.totals.get(series.key) ?? 0,
  }));
  if (ranked.length <= limit) return top;
  const other = matrix.bucketTotals.map(
    (bucketTotal, index) =>
      bucketTotal - top.reduce((sum, series) => sum + (series.values[index] ?? 0), 0),
  );
  return [
    ...top,
    {
      key: OTHER_KEY,
      label: `Other (${formatCount(ranked.length - limit)} more)`,
      unknown: false,
      dimensions: {},
      values: other,
      total: other.reduce((a, b) => a + b, 0),
    },
  ];
}

/** What "Other" holds: its groups, its share of all traces and the largest folded group's. */
export interface OtherSummary {
  groups: number;
  share: number;
  largestShare: number;
}

/**
 * "Other" of the chart's series, summarised; null when there is none or nothing was counted.
 * Many groups of a similar size (users, API keys) make it most of every bar: the chart says so.
 */
export function summariseOther(
  matrix: UsageMatrix,
  series: readonly ChartSeries[],
): OtherSummary | null {
  const other = series.find((item) => item.key === OTHER_KEY);
  if (!other || matrix.total <= 0) return null;
  // Ranked largest first, so the first folded group is the largest.
  const folded = foldedSeries(matrix, series.length - 1);
  const largest = folded[0] ? (matrix.totals.get(folded[0].key) ?? 0) : 0;
  return {
    groups: folded.length,
    share: other.total / matrix.total,
    largestShare: largest / matrix.total,
  };
}

/** The groups "Other" folds (every group after the top `limit`), largest first. */
export function foldedSeries(matrix: UsageMatrix, limit = 10): UsageSeries[] {
  return rankSeries(matrix).slice(limit);
}

/**
 * The focused group as one chart series: the chart's own (a top group or "Other"), or, for a
 * group "Other" folds (focused from the table), its values taken from the matrix. Null when the
 * group has no traces in this view.
 */
export function focusedSeries(
  matrix: UsageMatrix,
  series: readonly ChartSeries[],
  key: string,
): ChartSeries | null {
  const shown = series.find((item) => item.key === key);
  if (shown) return shown;
  const group = matrix.series.find((item) => item.key === key);
  if (!group) return null;
  return {
    ...group,
    values: matrix.values.get(key) ?? [],
    total: matrix.totals.get(key) ?? 0,
  };
}
