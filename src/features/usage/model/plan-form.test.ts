import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN } from '@contracts/usage/pricing';
import { formFromPlan, planFromForm } from './plan-form';

describe('the plan form', () => {
  it('reads the default plan in an admin’s units and gives it back unchanged', () => {
    const form = formFromPlan(DEFAULT_PLAN);
    expect(form).toEqual({
      seats: '1',
      seat_price: '39',
      included_base: '10000',
      base_per_1k: '0.5',
      upgrade_per_1k: '4.5',
      run_price: '0.005',
      uptime_per_minute: '0.0036',
    });
    expect(planFromForm(form, DEFAULT_PLAN)).toEqual({ plan: DEFAULT_PLAN });
  });

  it('turns per-1,000 and per-minute prices into unit prices', () => {
    const result = planFromForm(
      { ...formFromPlan(DEFAULT_PLAN), base_per_1k: '2.5', uptime_per_minute: '0.006' },
      DEFAULT_PLAN,
    );
    expect(result).toMatchObject({
      plan: { unit_prices: { base_traces: 0.0025, deployment_uptime_seconds: 0.0001 } },
    });
  });

  it.each([
    ['seats', '1.5', 'Enter a whole number, 0 or more.'],
    ['seats', '', 'Enter a whole number, 0 or more.'],
    ['base_per_1k', '-1', 'Enter a price of 0 or more.'],
  ] as const)('%s = %j: %s', (name, text, message) => {
    expect(planFromForm({ ...formFromPlan(DEFAULT_PLAN), [name]: text }, DEFAULT_PLAN)).toEqual({
      errors: { [name]: message },
    });
  });
});
