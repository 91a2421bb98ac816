import { z } from 'zod/mini';
import type { UsageMetric } from './pricing';

/**
 * The plan's wire shape (`GET|PUT /api/v1/orgs/current/billing/plan`), apart from the other
 * billing schemas: the Granular Usage tab reads the plan on its first load, and only this.
 */

const MAX_QUANTITY = Number.MAX_SAFE_INTEGER;
const count = z.int().check(z.minimum(0), z.maximum(MAX_QUANTITY));
/** Dollars, at most a billionth apart (see `pricing.ts`), and below a million per unit. */
const price = z.number().check(z.minimum(0), z.maximum(1_000_000));

const perMetric = <T extends z.core.$ZodType>(value: T) =>
  z.object({
    base_traces: value,
    extended_traces: value,
    extended_upgrades: value,
    deployment_runs: value,
    deployment_nodes: value,
    deployment_uptime_seconds: value,
  } satisfies Record<UsageMetric, T>);

/** A plan as `contracts/usage/pricing.ts` types it (the stores' reads assign one to the other). */
export const planSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(100)),
  seats: count,
  seat_price: price,
  included: perMetric(count),
  unit_prices: perMetric(price),
});
