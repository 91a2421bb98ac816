/** Alert thresholds of a usage limit: pure rules shared by the server and the SPA. */

/** The count at which `threshold` percent of `limit` is reached (never below 1 for a limit > 0). */
export function thresholdCount(limit: number, threshold: number): number {
  if (limit === 0) return 0;
  return Math.max(1, Math.ceil((limit * threshold) / 100));
}

/**
 * The thresholds `used` has reached and that were not alerted yet this month, in ascending
 * order: each threshold is delivered once per month, however often the count is looked at.
 */
export function newlyCrossed(
  used: number,
  limit: number,
  thresholds: readonly number[],
  alreadySent: ReadonlySet<number>,
): number[] {
  return [...thresholds]
    .sort((a, b) => a - b)
    .filter((threshold) => !alreadySent.has(threshold) && used >= thresholdCount(limit, threshold));
}
