import type { TraceTier } from '@contracts/usage/usage-schema';
import { DEFAULT_PLAN, tierPricesPer1k } from '@contracts/usage/pricing';
import { estimateCost } from './cost-estimate';

/**
 * The default plan's price of an extended trace (400-day retention) per 1,000: the base charge
 * plus the upgrade (see DEFAULT_PLAN). A default only.
 */
export const DEFAULT_EXTENDED_PRICE_PER_1K = tierPricesPer1k(DEFAULT_PLAN).extended;

/** Prices per 1,000 traces of each tier. */
export interface TierPrices {
  base: number;
  extended: number;
}

/** Traces of each tier over the view. */
export type TierTotals = Record<TraceTier, number>;

/** Dollars for traces of both tiers, each at its own price: an estimate, never a bill. */
export function estimateTierCost(totals: TierTotals, prices: TierPrices): number {
  return (
    estimateCost(totals.shortlived, prices.base) + estimateCost(totals.longlived, prices.extended)
  );
}

/**
 * The price per 1,000 traces that the screen's per-row and per-bucket estimates use: the tier's
 * own when the view shows one tier; for every tier, the blend of both prices weighted by the
 * view's tier totals (so the rows add up to the tiered total); the base price while the totals
 * are unknown or zero.
 */
export function effectivePricePer1k(
  tier: TraceTier | null,
  totals: TierTotals | undefined,
  prices: TierPrices,
): number {
  if (tier === 'longlived') return prices.extended;
  if (tier === 'shortlived') return prices.base;
  const all = totals ? totals.longlived + totals.shortlived : 0;
  if (!totals || all === 0) return prices.base;
  return (estimateTierCost(totals, prices) / all) * 1000;
}
