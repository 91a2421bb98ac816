/** How a total moved against the previous period of the same length. */
export type PeriodChange =
  | { kind: 'new'; delta: number }
  | { kind: 'change'; delta: number; ratio: number }
  | { kind: 'none' };

/** `new` when there was nothing before (a percentage of 0 is meaningless); `none` when both are 0. */
export function comparePeriods(current: number, previous: number): PeriodChange {
  if (previous === 0) return current === 0 ? { kind: 'none' } : { kind: 'new', delta: current };
  return { kind: 'change', delta: current - previous, ratio: (current - previous) / previous };
}
