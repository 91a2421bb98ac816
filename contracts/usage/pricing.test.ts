import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN,
  chargeCents,
  invoiceLine,
  invoiceLines,
  invoiceTotal,
  tierPricesPer1k,
  type Plan,
  type UsageMetric,
} from './pricing';

const plan: Plan = {
  ...DEFAULT_PLAN,
  seats: 3,
  seat_price: 39,
  included: { ...DEFAULT_PLAN.included, base_traces: 10_000 },
};

describe('invoiceLine', () => {
  it.each<[UsageMetric, number, number, number]>([
    // metric, quantity, billable, amount (hand-computed)
    ['base_traces', 0, 0, 0],
    ['base_traces', 9_999, 0, 0],
    ['base_traces', 10_000, 0, 0],
    ['base_traces', 10_001, 1, 0], // 1 × $0.0005 = $0.0005 → $0.00
    ['base_traces', 22_345, 12_345, 6.17], // 12,345 × $0.0005 = $6.1725 → $6.17
    ['base_traces', 11_000, 1_000, 0.5],
    ['extended_upgrades', 1_111, 1_111, 5], // 1,111 × $0.0045 = $4.9995 → $5.00
    ['extended_upgrades', 3, 3, 0.01], // $0.0135 → $0.01
    ['deployment_runs', 101, 101, 0.51], // $0.505 → $0.51 (half up)
    ['deployment_uptime_seconds', 86_400, 86_400, 5.18], // one day: $5.184 → $5.18
    ['extended_traces', 5_000, 5_000, 0],
  ])('%s × %i: %i billable, $%d', (metric, quantity, billable, amount) => {
    const result = invoiceLine(metric, quantity, plan);
    expect(result).toEqual({
      metric,
      quantity,
      included: plan.included[metric],
      billable,
      unit_price: plan.unit_prices[metric],
      amount,
    });
  });

  it('rounds a price with a fraction of a cent exactly, not by binary floating point', () => {
    // 0.1 + 0.2 style drift: 3 × $0.1 × 100 is 30.000000000000004 in doubles.
    expect(chargeCents(3, 0.1)).toBe(30);
    expect(chargeCents(1, 0.005)).toBe(1);
    expect(chargeCents(1, 0.00499)).toBe(0);
  });
});

describe('invoiceLines and invoiceTotal', () => {
  it('lists seats first, then every metric, and totals the rounded amounts', () => {
    const lines = invoiceLines(
      {
        base_traces: 22_345,
        extended_traces: 400,
        extended_upgrades: 1_111,
        deployment_runs: 101,
        deployment_nodes: 900,
        deployment_uptime_seconds: 86_400,
      },
      plan,
    );
    expect(lines.map((each) => [each.metric, each.amount])).toEqual([
      ['seats', 117],
      ['base_traces', 6.17],
      ['extended_traces', 0],
      ['extended_upgrades', 5],
      ['deployment_runs', 0.51],
      ['deployment_nodes', 0],
      ['deployment_uptime_seconds', 5.18],
    ]);
    // 117 + 6.17 + 5 + 0.51 + 5.18
    expect(invoiceTotal(lines)).toBe(133.86);
  });

  it('adds cents, so many small amounts total exactly', () => {
    const tenCents = invoiceLine('deployment_runs', 20, plan);
    expect(invoiceTotal(Array.from({ length: 3 }, () => tenCents))).toBe(0.3);
  });
});

describe('tierPricesPer1k', () => {
  it('prices a base trace at the base charge and an extended one at base + upgrade', () => {
    expect(tierPricesPer1k(DEFAULT_PLAN)).toEqual({ base: 0.5, extended: 5 });
    expect(
      tierPricesPer1k({
        ...DEFAULT_PLAN,
        unit_prices: { ...DEFAULT_PLAN.unit_prices, base_traces: 0.0025, extended_upgrades: 0.001 },
      }),
    ).toEqual({ base: 2.5, extended: 3.5 });
  });
});
