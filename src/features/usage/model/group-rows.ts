import type { UsageMatrix } from './usage-matrix';

/** One line of the "Usage by group" table. */
export interface GroupRow {
  key: string;
  label: string;
  unknown: boolean;
  traces: number;
  /** Fraction of the range's total (0..1). */
  share: number;
  previous: number;
  /** Sortable change: relative change, or +Infinity for groups new in this period. */
  change: number;
}

export type SortKey = 'label' | 'traces' | 'share' | 'change';
export interface SortState {
  key: SortKey;
  direction: 'asc' | 'desc';
}

export function sortGroupRows(
  matrix: UsageMatrix,
  previous: ReadonlyMap<string, number> | undefined,
  sort: SortState,
): GroupRow[] {
  const rows = matrix.series.map((series): GroupRow => {
    const traces = matrix.totals.get(series.key) ?? 0;
    const before = previous?.get(series.key) ?? 0;
    return {
      key: series.key,
      label: series.label,
      unknown: series.unknown,
      traces,
      share: matrix.total === 0 ? 0 : traces / matrix.total,
      previous: before,
      change:
        before === 0 ? (traces === 0 ? 0 : Number.POSITIVE_INFINITY) : (traces - before) / before,
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
