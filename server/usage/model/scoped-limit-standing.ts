import { newlyCrossed } from '@contracts/usage/limit-alerts';
import { SPEND_LIMIT_TYPE, type LimitType, type ScopedLimit } from '@contracts/usage/usage-limits';
import { worstCaseSpend, type TracePrices } from './spend-limit';

/** How far a project, user or spend limit is this month. */
export interface ScopedStanding {
  /** Traces of the project or user, or the workspace's spend in dollars (to the micro-dollar). */
  used: number;
  /** Whether ingestion refuses now: the count, or a spend limit's derived trace limit, is full. */
  reached: boolean;
}

/** Dollars are compared as whole millionths, so a spend threshold is as exact as a count. */
const MICROS = 1_000_000;
const micros = (dollars: number) => Math.round(dollars * MICROS);

/**
 * A scoped limit's standing from the month's counts: a project or user limit counts its target's
 * traces (`targetUsed`, keyed `scope|target`); a spend limit counts the workspace's traces at
 * `prices` (every trace the base price, an extended one its upgrade too: what the invoice bills
 * before allowances) and is reached once the trace limit its dollars bought is.
 */
export function scopedStanding(
  limit: ScopedLimit,
  workspaceUsed: Record<LimitType, number>,
  targetUsed: ReadonlyMap<string, number>,
  prices: TracePrices,
): ScopedStanding {
  if (limit.limit_type === SPEND_LIMIT_TYPE) {
    const used = micros(worstCaseSpend(workspaceUsed, prices)) / MICROS;
    const full =
      limit.derived !== null && workspaceUsed.monthly_traces >= limit.derived.monthly_traces;
    return { used, reached: full || micros(used) >= micros(limit.limit_value) };
  }
  const used = targetUsed.get(`${limit.scope}|${limit.target_id}`) ?? 0;
  return { used, reached: used >= limit.limit_value };
}

/**
 * The thresholds (percent) a scoped limit has newly crossed, ascending, as `newlyCrossed` rules
 * them (each once a month, 100 % always kept); a reached limit has crossed all of them, so a
 * spend limit whose bought traces ran out a fraction of a cent short alerts its 100 % too.
 */
export function scopedThresholdsCrossed(
  limit: ScopedLimit,
  standing: ScopedStanding,
  alreadySent: ReadonlySet<number>,
): number[] {
  const thresholds = [...new Set([...limit.alert_thresholds, 100])];
  if (limit.limit_type !== SPEND_LIMIT_TYPE) {
    return newlyCrossed(standing.used, limit.limit_value, thresholds, alreadySent);
  }
  const used = standing.reached ? Math.max(standing.used, limit.limit_value) : standing.used;
  return newlyCrossed(micros(used), micros(limit.limit_value), thresholds, alreadySent);
}
