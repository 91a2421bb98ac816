import { comparePeriods, type PeriodChange } from './compare-periods';
import type { GroupComparison } from './group-comparison';
import { foldedSeries, OTHER_KEY, topSeriesWithOther } from './top-series';
import type { UsageMatrix } from './usage-matrix';

/** What the cards show while the chart shows one group alone (a legend entry or a table row). */
export interface FocusScope {
  key: string;
  label: string;
  /** The focused group's traces in the view. */
  total: number;
  /** Every group's traces in the view, for "of 243,484 in all groups". */
  allTotal: number;
  /** The comparison narrowed to the group (undefined while it loads). */
  comparison: GroupComparison | undefined;
}

/** The keys a focus covers: one group, or every group "Other" folds. */
function keysOf(matrix: UsageMatrix, key: string): string[] {
  if (key !== OTHER_KEY) return [key];
  return foldedSeries(matrix).map((series) => series.key);
}

const sumOf = (byGroup: ReadonlyMap<string, number>, keys: readonly string[]) =>
  keys.reduce((sum, key) => sum + (byGroup.get(key) ?? 0), 0);

/**
 * The focused group's figures, so the cards follow the chart; null when nothing is focused or the
 * group has no traces in this view (the focus bar says so).
 */
export function focusScope(
  matrix: UsageMatrix,
  focus: string | null,
  comparison: GroupComparison | undefined,
): FocusScope | null {
  if (focus === null) return null;
  const label =
    focus === OTHER_KEY
      ? topSeriesWithOther(matrix).find((item) => item.key === OTHER_KEY)?.label
      : matrix.series.find((item) => item.key === focus)?.label;
  if (label === undefined) return null;
  const keys = keysOf(matrix, focus);
  const narrowed: GroupComparison | undefined =
    comparison && comparison.measured
      ? {
          measured: true,
          current: {
            total: sumOf(comparison.current.byGroup, keys),
            byGroup: comparison.current.byGroup,
          },
          previous: {
            total: sumOf(comparison.previous.byGroup, keys),
            byGroup: comparison.previous.byGroup,
          },
        }
      : comparison;
  return {
    key: focus,
    label,
    total: sumOf(matrix.totals, keys),
    allTotal: matrix.total,
    comparison: narrowed,
  };
}

/** The scope's change against the previous period (undefined while the comparison loads). */
export function periodChangeOf(scope: FocusScope): PeriodChange | undefined {
  const { comparison } = scope;
  if (!comparison) return undefined;
  return comparison.measured
    ? comparePeriods(comparison.current.total, comparison.previous.total)
    : comparePeriods(scope.total, 0, false);
}
