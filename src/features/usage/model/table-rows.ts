import type { GroupRow } from './group-rows';
import { foldedSeries, OTHER_KEY, topSeriesWithOther } from './top-series';
import type { UsageMatrix } from './usage-matrix';

/** A line of the "Usage by group" table: a group, or the "Other" line the chart folds. */
export type TableLine =
  | { kind: 'group'; row: GroupRow; folded: boolean }
  | {
      kind: 'other';
      key: typeof OTHER_KEY;
      label: string;
      traces: number;
      share: number;
      count: number;
    };

/**
 * The table's lines, in `rows`' order: the chart's groups, then "Other" (when the chart folds
 * groups) followed, when `expanded`, by the groups it folds. A search shows every match flat.
 */
export function tableLines(
  matrix: UsageMatrix,
  rows: readonly GroupRow[],
  { expanded, searching }: { expanded: boolean; searching: boolean },
): TableLine[] {
  const folded = new Set(foldedSeries(matrix).map((series) => series.key));
  const other = topSeriesWithOther(matrix).find((series) => series.key === OTHER_KEY);
  if (searching || !other) return rows.map((row) => ({ kind: 'group', row, folded: false }));
  const top = rows.filter((row) => !folded.has(row.key));
  const inOther = rows.filter((row) => folded.has(row.key));
  return [
    ...top.map((row): TableLine => ({ kind: 'group', row, folded: false })),
    {
      kind: 'other',
      key: OTHER_KEY,
      label: other.label,
      traces: other.total,
      share: matrix.total === 0 ? 0 : other.total / matrix.total,
      count: inOther.length,
    },
    ...(expanded ? inOther.map((row): TableLine => ({ kind: 'group', row, folded: true })) : []),
  ];
}
