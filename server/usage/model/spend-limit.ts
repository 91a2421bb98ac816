/**
 * A monthly spend limit in dollars, turned into the trace limits ingestion enforces. The admin
 * splits the dollars between base traces and extended-retention traces (`extendedShare` of them
 * for extended); each part buys whole traces at its unit price, rounded down, so the month's
 * bill under the derived limits never exceeds the spend:
 * - `monthly_longlived_traces` = extended part / extended price (an extended trace costs the
 *   base price plus its upgrade);
 * - `monthly_traces` (every trace) = those extended traces + base part / base price.
 * Unused extended room is taken by cheaper base traces at most, so the worst case stays in budget.
 */

export interface TracePrices {
  /** Dollars per base trace. */
  base: number;
  /** Dollars per extended-retention trace, its base charge included. */
  extended: number;
}

export interface DerivedTraceLimits {
  monthly_traces: number;
  monthly_longlived_traces: number;
}

/**
 * Amounts held in billionths of a dollar and the share in hundredths of a percent: the
 * divisions are then exact integer ones (a $10 limit at $0.0005 buys 20,000 traces, never 19,999).
 */
const NANOS = 1_000_000_000;
const SHARE_STEPS = 10_000n;

const nanos = (dollars: number) => BigInt(Math.round(dollars * NANOS));

export function deriveTraceLimits(
  spendDollars: number,
  extendedShare: number,
  prices: TracePrices,
): DerivedTraceLimits {
  const spend = nanos(Math.max(0, spendDollars));
  const share = BigInt(Math.round(Math.min(1, Math.max(0, extendedShare)) * Number(SHARE_STEPS)));
  const extendedBudget = (spend * share) / SHARE_STEPS;
  const baseBudget = spend - extendedBudget;
  const perTrace = (budget: bigint, price: number) => {
    const unit = nanos(price);
    return unit > 0n ? Number(budget / unit) : Number.MAX_SAFE_INTEGER;
  };
  const extended = perTrace(extendedBudget, prices.extended);
  const base = perTrace(baseBudget, prices.base);
  return {
    monthly_traces: Math.min(Number.MAX_SAFE_INTEGER, extended + base),
    monthly_longlived_traces: extended,
  };
}

/** Dollars the traces under `limits` cost at most: what the console shows beside the split. */
export function worstCaseSpend(limits: DerivedTraceLimits, prices: TracePrices): number {
  const baseOnly = limits.monthly_traces - limits.monthly_longlived_traces;
  return limits.monthly_longlived_traces * prices.extended + baseOnly * prices.base;
}

/** A plan's trace prices as a spend limit counts them: an extended trace is base plus upgrade. */
export function tracePrices(unitPrices: { base_traces: number; extended_upgrades: number }) {
  return {
    base: unitPrices.base_traces,
    extended: unitPrices.base_traces + unitPrices.extended_upgrades,
  };
}
