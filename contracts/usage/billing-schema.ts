import { z } from 'zod/mini';
import { USAGE_METRICS } from './pricing';
import { planSchema } from './plan-schema';

/**
 * The billing API's wire shapes (`/api/v1/orgs/current/billing/*`), shared by the server and the
 * SPA: the plan, the period's usage and the invoice. `zod/mini`: the SPA parses every answer.
 */

export const usageMetricSchema = z.enum(USAGE_METRICS);

/** What `GET /orgs/current/billing/usage` splits each metric by (`group_by`, workspace by default). */
export const BILLING_GROUP_BYS = ['workspace', 'project', 'user', 'api_key'] as const;
export const billingGroupBySchema = z.enum(BILLING_GROUP_BYS);
export type BillingGroupBy = z.infer<typeof billingGroupBySchema>;

/**
 * The `groups` key of usage no user or API key drives (`group_by=user|api_key`): deployment
 * work, and traces or upgrades sent without one.
 */
export const UNATTRIBUTED_GROUP = 'none';

/**
 * `GET /orgs/current/billing/usage`: one entry per metric, its total and its value per group
 * (workspace, project, user or API key id).
 */
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
