/**
 * What a month of usage costs: the billed metrics, a plan's allowances and prices, and the
 * arithmetic of an invoice line. Shared by the server (invoices) and the SPA (the Granular Usage
 * estimate), so the two screens never price the same traces differently.
 */

/**
 * The metrics LangSmith bills, in invoice order. `base_traces` counts every trace (whatever its
 * tier) in the month it is ingested; `extended_upgrades` counts traces moved to extended retention
 * in the month the upgrade happens (a trace ingested extended counts in both, at once);
 * `extended_traces` is the month's extended-retention traces, shown for reference: its cost is
 * already carried by the two lines above.
 */
export const USAGE_METRICS = [
  'base_traces',
  'extended_traces',
  'extended_upgrades',
  'deployment_runs',
  'deployment_nodes',
  'deployment_uptime_seconds',
] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];

/** A seat line is priced like a metric but comes from the plan, not from usage. */
export type InvoiceMetric = UsageMetric | 'seats';

/** A plan: what the organization pays for a month. Prices in dollars per unit. */
export interface Plan {
  name: string;
  /** Seats billed each month, at `seat_price` each. */
  seats: number;
  seat_price: number;
  /** Units of each metric the month includes before any is billed. */
  included: Record<UsageMetric, number>;
  unit_prices: Record<UsageMetric, number>;
}

/** Where DEFAULT_PLAN's numbers come from, for the screens that show them. */
export const DEFAULT_PLAN_SOURCE = {
  read_on: '2026-11-28',
  urls: [
    'https://docs.langchain.com/langsmith/usage-and-billing',
    'https://docs.langchain.com/langsmith/billing',
    'https://www.langchain.com/pricing',
  ],
} as const;

/**
 * LangSmith's published self-serve Plus plan, as read on DEFAULT_PLAN_SOURCE.read_on:
 * - traces (docs `langsmith/usage-and-billing`, "Cost breakdown"): the base charge is 0.05¢ per
 *   trace, the extended-retention upgrade 0.45¢ (an extended trace costs 0.50¢ in all);
 * - allowance and seats (pricing page): 10k base traces a month included, $39 per seat;
 * - deployments (docs `langsmith/billing`, "LangSmith Deployment billing"): $0.005 per agent run,
 *   nodes within a run not charged separately; uptime of a production deployment at $0.0036 per
 *   minute (pricing page, LangSmith Deployment), i.e. $0.00006 per second.
 * Contracts and Enterprise plans differ: this is only the default an admin replaces.
 */
export const DEFAULT_PLAN: Plan = {
  name: 'Plus',
  seats: 1,
  seat_price: 39,
  included: {
    base_traces: 10_000,
    extended_traces: 0,
    extended_upgrades: 0,
    deployment_runs: 0,
    deployment_nodes: 0,
    deployment_uptime_seconds: 0,
  },
  unit_prices: {
    base_traces: 0.0005,
    extended_traces: 0,
    extended_upgrades: 0.0045,
    deployment_runs: 0.005,
    deployment_nodes: 0,
    deployment_uptime_seconds: 0.00006,
  },
};

/** One row of an invoice. `amount` is in dollars, rounded to the cent once. */
export interface InvoiceLine {
  metric: InvoiceMetric;
  quantity: number;
  included: number;
  billable: number;
  unit_price: number;
  amount: number;
}

/**
 * Prices are held to a billionth of a dollar, so the product of a quantity and a price is an
 * exact integer and rounding to the cent happens once, half up, without binary-fraction drift
 * (0.0005 × 12,345 is $6.1725 and bills $6.17, not whatever 6.172499… rounds to).
 */
const NANOS_PER_DOLLAR = 1_000_000_000n;
const NANOS_PER_CENT = NANOS_PER_DOLLAR / 100n;

function toNanos(price: number): bigint {
  return BigInt(Math.round(price * Number(NANOS_PER_DOLLAR)));
}

/** Whole cents for `units` at `unitPrice` dollars each, rounded half up. */
export function chargeCents(units: number, unitPrice: number): number {
  const nanos = BigInt(Math.round(units)) * toNanos(unitPrice);
  return Number((nanos + NANOS_PER_CENT / 2n) / NANOS_PER_CENT);
}

function line(metric: InvoiceMetric, quantity: number, included: number, unitPrice: number) {
  const billable = Math.max(0, quantity - included);
  return {
    metric,
    quantity,
    included,
    billable,
    unit_price: unitPrice,
    amount: chargeCents(billable, unitPrice) / 100,
  } satisfies InvoiceLine;
}

/** The invoice line for `quantity` units of `metric` used in a month under `plan`. */
export function invoiceLine(metric: UsageMetric, quantity: number, plan: Plan): InvoiceLine {
  return line(metric, quantity, plan.included[metric], plan.unit_prices[metric]);
}

/** The plan's seats for a month, as an invoice line. */
export function seatLine(plan: Plan): InvoiceLine {
  return line('seats', plan.seats, 0, plan.seat_price);
}

/** The sum of the lines' amounts, added in cents so it equals what a reader adds by hand. */
export function invoiceTotal(lines: readonly InvoiceLine[]): number {
  return lines.reduce((cents, each) => cents + Math.round(each.amount * 100), 0) / 100;
}

/** A month's lines in invoice order: seats, then every metric. */
export function invoiceLines(usage: Record<UsageMetric, number>, plan: Plan): InvoiceLine[] {
  return [
    seatLine(plan),
    ...USAGE_METRICS.map((metric) => invoiceLine(metric, usage[metric], plan)),
  ];
}

/**
 * Dollars per 1,000 traces of each retention tier under `plan`, as the Granular Usage estimate
 * shows them: a base trace pays the base charge; an extended one pays it and the upgrade.
 */
export function tierPricesPer1k(plan: Plan): { base: number; extended: number } {
  const base = toNanos(plan.unit_prices.base_traces) * 1000n;
  const upgrade = toNanos(plan.unit_prices.extended_upgrades) * 1000n;
  return {
    base: Number(base) / Number(NANOS_PER_DOLLAR),
    extended: Number(base + upgrade) / Number(NANOS_PER_DOLLAR),
  };
}
