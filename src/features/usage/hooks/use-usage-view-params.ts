import {
  parseAsArrayOf,
  parseAsFloat,
  parseAsString,
  parseAsStringLiteral,
  useQueryStates,
  type inferParserType,
} from '@/lib/url-state';
import { DEFAULT_PLAN, tierPricesPer1k } from '@contracts/usage/pricing';
import { GROUP_BY_VALUES } from '@contracts/usage/usage-values';
import { usePlan } from '../api/billing-plan';
import { AGGREGATIONS } from '../model/aggregation';
import { TIER_FILTERS, USAGE_TABS, type UsageViewParams } from '../model/resolve-usage-view';
import { RANGE_PRESETS } from '../model/time-range';

/**
 * The tab's whole state, in the URL: `?period=custom&from=2026-08-01&to=2026-08-31
 * &aggregation=weekly&group_by=project&workspaces=<id>,<id>&focus=<group id>&price=2.5
 * &price_ext=5&tab=deployments&tier=longlived`. Defaults stay out of the URL. Range, aggregation,
 * grouping and workspaces are shared by both tabs, so switching tabs keeps them.
 */
const usageViewParsers = {
  // LangSmith Traces (default) or LangSmith Deployments.
  tab: parseAsStringLiteral(USAGE_TABS).withDefault('traces'),
  // The Traces tab's retention filter.
  tier: parseAsStringLiteral(TIER_FILTERS).withDefault('all'),
  period: parseAsStringLiteral(RANGE_PRESETS).withDefault('30d'),
  from: parseAsString,
  to: parseAsString,
  aggregation: parseAsStringLiteral(AGGREGATIONS),
  group_by: parseAsStringLiteral(GROUP_BY_VALUES).withDefault('workspace'),
  workspaces: parseAsArrayOf(parseAsString),
  // The one group the chart shows (a key of the current grouping), so a link keeps the focus.
  focus: parseAsString,
  // Dollars per 1,000 traces for the cost estimates (see cost-estimate.ts); absent: the plan's.
  price: parseAsFloat,
  // Dollars per 1,000 extended (long-lived) traces; absent: the plan's.
  price_ext: parseAsFloat,
};

const validPrice = (price: number | null, fallback: number) =>
  price !== null && Number.isFinite(price) && price >= 0 ? price : fallback;

export type UsageViewUpdate = Partial<inferParserType<typeof usageViewParsers>>;

export function useUsageViewParams() {
  // Each change is a history entry, so Back undoes the last control change.
  const [state, setState] = useQueryStates(usageViewParsers, { history: 'push' });
  // The organization's plan prices the estimates unless the link sets its own, so this tab and
  // the Invoices view price traces alike (the default plan while the plan loads or is absent).
  const plan = usePlan().data ?? DEFAULT_PLAN;
  const planPrices = tierPricesPer1k(plan);
  const params: UsageViewParams = {
    tab: state.tab,
    tier: state.tier,
    extendedPricePer1k: validPrice(state.price_ext, planPrices.extended),
    period: state.period,
    from: state.from,
    to: state.to,
    aggregation: state.aggregation,
    groupBy: state.group_by,
    workspaces: state.workspaces,
    focus: state.focus,
    pricePer1k: validPrice(state.price, planPrices.base),
  };
  return [params, setState] as const;
}
