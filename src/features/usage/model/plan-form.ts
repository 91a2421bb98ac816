import type { Plan } from '@contracts/usage/pricing';
import { parsePrice } from './cost-estimate';

/**
 * The plan editor's fields, in the units an admin thinks in: traces and upgrades per 1,000,
 * agent runs each, uptime per minute. Texts as typed; `planFromForm` turns them into a plan.
 */
export const PLAN_FIELDS = [
  { name: 'seats', label: 'Seats', unit: 'count' },
  { name: 'seat_price', label: 'Price per seat (USD / month)', unit: 'price' },
  { name: 'included_base', label: 'Base traces included each month', unit: 'count' },
  { name: 'base_per_1k', label: 'Base traces (USD per 1,000)', unit: 'price' },
  { name: 'upgrade_per_1k', label: 'Extended retention upgrades (USD per 1,000)', unit: 'price' },
  { name: 'run_price', label: 'Deployment agent runs (USD each)', unit: 'price' },
  { name: 'uptime_per_minute', label: 'Deployment uptime (USD per minute)', unit: 'price' },
] as const;
export type PlanFieldName = (typeof PLAN_FIELDS)[number]['name'];
export type PlanForm = Record<PlanFieldName, string>;

/** Rounds away binary-fraction noise (0.0005 × 1000 is 0.5, not 0.49999…). */
const clean = (value: number) => Number(value.toPrecision(12));

export function formFromPlan(plan: Plan): PlanForm {
  return {
    seats: String(plan.seats),
    seat_price: String(plan.seat_price),
    included_base: String(plan.included.base_traces),
    base_per_1k: String(clean(plan.unit_prices.base_traces * 1000)),
    upgrade_per_1k: String(clean(plan.unit_prices.extended_upgrades * 1000)),
    run_price: String(plan.unit_prices.deployment_runs),
    uptime_per_minute: String(clean(plan.unit_prices.deployment_uptime_seconds * 60)),
  };
}

const parseCount = (text: string) => {
  const value = Number(text);
  return text.trim() !== '' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
};

/** The plan the form describes (other fields kept from `base`), or each field's problem. */
export function planFromForm(
  form: PlanForm,
  base: Plan,
): { plan: Plan } | { errors: Partial<Record<PlanFieldName, string>> } {
  const errors: Partial<Record<PlanFieldName, string>> = {};
  const values: Partial<Record<PlanFieldName, number>> = {};
  for (const field of PLAN_FIELDS) {
    const value =
      field.unit === 'count' ? parseCount(form[field.name]) : parsePrice(form[field.name]);
    if (value === undefined) {
      errors[field.name] =
        field.unit === 'count' ? 'Enter a whole number, 0 or more.' : 'Enter a price of 0 or more.';
    } else values[field.name] = value;
  }
  const get = (name: PlanFieldName) => values[name] ?? 0;
  if (Object.keys(errors).length > 0) return { errors };
  return {
    plan: {
      ...base,
      seats: get('seats'),
      seat_price: get('seat_price'),
      included: { ...base.included, base_traces: get('included_base') },
      unit_prices: {
        ...base.unit_prices,
        base_traces: clean(get('base_per_1k') / 1000),
        extended_upgrades: clean(get('upgrade_per_1k') / 1000),
        deployment_runs: get('run_price'),
        deployment_uptime_seconds: clean(get('uptime_per_minute') / 60),
      },
    },
  };
}
