import type { ComparisonTotals, PeriodTotals } from '../api/get-comparison-totals';
import type { ComparisonPlan } from './measured-comparison';
import type { UsageMatrix } from './usage-matrix';

/**
 * The two sides every change on screen is computed from (the card's and each group's), so they
 * follow one rule: nothing when the previous period was not measured; otherwise the measured
 * previous days against the same number of days of the view.
 */
export type GroupComparison =
  { measured: false } | { measured: true; current: PeriodTotals; previous: PeriodTotals };

/** Undefined while the comparison's totals load (or failed). */
export function groupComparison(
  matrix: UsageMatrix,
  plan: ComparisonPlan,
  totals: ComparisonTotals | undefined,
): GroupComparison | undefined {
  if (plan.kind === 'unmeasured') return { measured: false };
  if (!totals) return undefined;
  return {
    measured: true,
    previous: totals.previous,
    current: totals.current ?? { total: matrix.total, byGroup: matrix.totals },
  };
}
