import { DEFAULT_PLAN, tierPricesPer1k } from '@contracts/usage/pricing';

/**
 * The default plan's price of base traces (14-day retention) per 1,000; its source and date are
 * on DEFAULT_PLAN. Only a default: the user sets their own price, kept in the URL.
 */
export const DEFAULT_PRICE_PER_1K = tierPricesPer1k(DEFAULT_PLAN).base;

/**
 * Dollars for `traces` at `pricePer1k` dollars per 1,000 traces: an estimate, never a bill. Kept
 * unrounded so tier blends and CSV cells stay exact; shown to the cent, it reads as the invoice
 * line of the same traces at the same price (both round half up).
 */
export function estimateCost(traces: number, pricePer1k: number): number {
  return (traces / 1000) * pricePer1k;
}

/** A price typed by hand: finite and not negative, or undefined. */
export function parsePrice(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** A price as its field shows it: cents always ("2.50"), finer prices whole ("0.125"). */
export function formatPriceField(price: number): string {
  const cents = Math.round(price * 100);
  return Math.abs(price * 100 - cents) < 1e-9 ? (cents / 100).toFixed(2) : String(price);
}

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "$1,234.50"; amounts under a cent say so rather than "$0.00". */
export function formatUsd(amount: number): string {
  if (amount > 0 && amount < 0.005) return '< $0.01';
  return usd.format(amount);
}
