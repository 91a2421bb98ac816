/** How a total moved against the (measured part of the) previous period. */
export type PeriodChange =
  | { kind: 'unmeasured' }
  | { kind: 'none' }
  | { kind: 'from-zero'; delta: number }
  | { kind: 'change'; delta: number; ratio: number };

/**
 * `unmeasured` when the previous period has no data at all (before the data floor): no figure
 * is honest then. `from-zero` when it was measured and empty (a percentage of 0 is meaningless);
 * `none` when both are 0.
 */
export function comparePeriods(current: number, previous: number, measured = true): PeriodChange {
  if (!measured) return { kind: 'unmeasured' };
  if (previous === 0)
    return current === 0 ? { kind: 'none' } : { kind: 'from-zero', delta: current };
  return { kind: 'change', delta: current - previous, ratio: (current - previous) / previous };
}
