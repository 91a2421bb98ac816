import { DEFAULT_PLAN } from '@contracts/usage/pricing';
import { tracePrices, type TracePrices } from '../model/spend-limit';
import type { BillingLedger } from '../store/billing-ledger';

/** The organization's trace prices now (its stored plan, else the default): what spend counts. */
export async function planTracePrices(ledger: Pick<BillingLedger, 'plan'>): Promise<TracePrices> {
  return tracePrices(((await ledger.plan()) ?? DEFAULT_PLAN).unit_prices);
}
