import { z } from 'zod/mini';
import { USAGE_METRICS, type Plan, type UsageMetric } from './pricing';

/**
 * The billing API's wire shapes (`/api/v1/orgs/current/billing/*`), shared by the server and the
 * SPA: the plan, the period's usage and the invoice. `zod/mini`: the SPA parses every answer.
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

export const planSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(100)),
  seats: count,
  seat_price: price,
  included: perMetric(count),
  unit_prices: perMetric(price),
});
// The schema and the pricing module's type must describe one shape.
export const toPlan = (value: z.infer<typeof planSchema>): Plan => value;

export const usageMetricSchema = z.enum(USAGE_METRICS);

/** `GET /orgs/current/billing/usage`: one entry per metric, its total and per workspace. */
export const billingUsageSchema = z.array(
  z.object({
    metric: usageMetricSchema,
    value: z.number(),
    groups: z.record(z.string(), z.number()),
  }),
);
export type BillingUsage = z.infer<typeof billingUsageSchema>;

export const invoiceLineSchema = z.object({
  metric: z.enum([...USAGE_METRICS, 'seats']),
  quantity: z.number(),
  included: z.number(),
  billable: z.number(),
  unit_price: z.number(),
  amount: z.number(),
});

/** One workspace's or project's share of the month: its quantities and their amounts. */
export const invoiceSplitSchema = z.object({
  workspace_id: z.string(),
  workspace_name: z.nullable(z.string()),
  project_id: z.nullable(z.string()),
  project_name: z.nullable(z.string()),
  lines: z.array(invoiceLineSchema),
  total: z.number(),
});

/** `GET /orgs/current/billing/invoices?month=YYYY-MM`. */
export const invoiceSchema = z.object({
  month: z.string(),
  status: z.enum(['draft', 'final']),
  /** For a draft: the month's lines projected to its end at the month-to-date daily rate. */
  projected: z.nullable(z.object({ lines: z.array(invoiceLineSchema), total: z.number() })),
  lines: z.array(invoiceLineSchema),
  total: z.number(),
  by_workspace: z.array(invoiceSplitSchema),
  by_project: z.array(invoiceSplitSchema),
  plan: planSchema,
});
export type Invoice = z.infer<typeof invoiceSchema>;
export type InvoiceSplit = z.infer<typeof invoiceSplitSchema>;
