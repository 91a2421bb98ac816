import type { InvoiceMetric } from '@contracts/usage/pricing';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month (`YYYY-MM`, UTC) of an instant. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** `?month=` as the Invoices view reads it: a month that has begun, else the current one. */
export function resolveInvoiceMonth(text: string | null, now: Date): string {
  const current = monthOf(now);
  return text !== null && MONTH.test(text) && text <= current ? text : current;
}

/** The current month and the `count - 1` before it, newest first. */
export function recentMonths(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - index, 1))),
  );
}

const monthName = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "November 2026". */
export function formatMonth(month: string): string {
  const [year = 0, index = 1] = month.split('-').map(Number);
  return monthName.format(new Date(Date.UTC(year, index - 1, 1)));
}

/** Each invoice line as LangSmith's invoice names it. */
export const INVOICE_METRIC_LABELS: Record<InvoiceMetric, string> = {
  seats: 'Seats',
  base_traces: 'LangSmith Traces (Base Charge)',
  extended_traces: 'Traces ingested with extended retention (priced in the base and upgrade lines)',
  extended_upgrades: 'LangSmith Traces (Extended Data Retention Upgrades)',
  deployment_runs: 'LangSmith Deployment Agent Runs',
  deployment_nodes: 'Deployment nodes executed',
  deployment_uptime_seconds: 'Deployment uptime (seconds)',
};

/**
 * Lines an invoice shows for their count only, at no charge of their own: the month's
 * extended-retention traces are priced by the base and upgrade lines.
 */
export const REFERENCE_METRICS: ReadonlySet<InvoiceMetric> = new Set(['extended_traces']);

/** A unit price as typed and shown: up to nine decimals, no trailing zeros past the cents. */
export function formatUnitPrice(price: number): string {
  const text = price.toFixed(9).replace(/0+$/, '');
  const [whole = '0', fraction = ''] = text.split('.');
  return `$${whole}.${fraction.padEnd(2, '0')}`;
}
