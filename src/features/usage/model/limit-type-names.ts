import type { LimitType } from '@contracts/usage/usage-limits';

/** The limit types in the console's words. */
export const LIMIT_TYPE_NAMES: Record<LimitType, string> = {
  monthly_traces: 'All traces',
  monthly_longlived_traces: 'Extended-retention traces',
};
