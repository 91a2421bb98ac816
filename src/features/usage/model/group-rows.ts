import { comparePeriods, type PeriodChange } from './compare-periods';
import type { GroupComparison } from './group-comparison';
import type { UsageMatrix } from './usage-matrix';

/** One line of the "Usage by group" table. */
export interface GroupRow {
  key: string;
  label: string;
  unknown: boolean;
  traces: number;
  /** Fraction of the range's total (0..1). */
  share: number;
  /** Undefined while the comparison loads. */
  periodChange: PeriodChange | undefined;
  /** Sortable change: relative change, +Infinity from zero, -Infinity when not comparable. */
  change: number;
}

export type SortKey = 'label' | 'traces' | 'share' | 'change';
export interface SortState {
  key: SortKey;
  direction: 'asc' | 'desc';
}

export function sortGroupRows(
  matrix: UsageMatrix,
  comparison: GroupComparison | undefined,
  sort: SortState,
): GroupRow[] {
  const rows = matrix.series.map((series): GroupRow => {
    const traces = matrix.totals.get(series.key) ?? 0;
    const periodChange = !comparison
      ? undefined
      : comparison.measured
        ? comparePeriods(
            comparison.current.byGroup.get(series.key) ?? 0,
            comparison.previous.byGroup.get(series.key) ?? 0,
          )
        : comparePeriods(traces, 0, false);
    return {
      key: series.key,
      label: series.label,
      unknown: series.unknown,
      traces,
      share: matrix.total === 0 ? 0 : traces / matrix.total,
      periodChange,
      change: sortableChange(periodChange),
    };
  });
  const sign = sort.direction === 'asc' ? 1 : -1;
  return rows.sort((a, b) => {
    const primary =
      sort.key === 'label' ? a.label.localeCompare(b.label) : a[sort.key] - b[sort.key];
    // Infinity - Infinity is NaN: treat equal "new" groups as ties.
    return (Number.isNaN(primary) ? 0 : primary) * sign || a.label.localeCompare(b.label);
  });
}

function sortableChange(change: PeriodChange | undefined): number {
  if (!change || change.kind === 'unmeasured') return Number.NEGATIVE_INFINITY;
  if (change.kind === 'from-zero') return Number.POSITIVE_INFINITY;
  return change.kind === 'change' ? change.ratio : 0;
}
