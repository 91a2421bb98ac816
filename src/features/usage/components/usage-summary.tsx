import { formatCount } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import type { UsageViewUpdate } from '../hooks/use-usage-view-params';
import type { FocusScope } from '../model/focus-scope';
import type { GroupComparison } from '../model/group-comparison';
import type { ComparisonPlan } from '../model/measured-comparison';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import type { TierPrices } from '../model/tier-cost';
import type { UsageMatrix } from '../model/usage-matrix';
import { CostStat } from './cost-stat';
import { PeriodChangeStat } from './period-change-stat';
import { ProjectionStat } from './projection-stat';
import { TierPriceFields } from './tier-price-fields';

interface UsageSummaryProps {
  view: ResolvedUsageView;
  matrix: UsageMatrix | undefined;
  plan: ComparisonPlan;
  comparison: GroupComparison | undefined;
  comparisonError: boolean;
  nowMs: number;
  pricePer1k: number;
  /** The price of each tier as typed (`pricePer1k` is what the view's tiers make of them). */
  prices: TierPrices;
  onChange: (update: UsageViewUpdate) => void;
  /** The group the chart shows alone: the cards show its figures and say so. */
  scope: FocusScope | null;
}

export function UsageSummary({
  view,
  matrix,
  plan,
  comparison,
  comparisonError,
  nowMs,
  pricePer1k,
  prices,
  onChange,
  scope,
}: UsageSummaryProps) {
  const lastDayMs = view.range.endMs - 1;
  const rangeText = `${formatUtc(view.range.startMs, 'MMM d, yyyy')} – ${formatUtc(lastDayMs, 'MMM d, yyyy')} UTC`;
  const traces = scope ? scope.total : matrix?.total;

  return (
    <div className="usage-summary">
      <div className="stat">
        <span className="stat-label" id="total-traces-label">
          {scope ? `Total traces, ${scope.label} only` : 'Total traces'}
        </span>
        <output className="stat-value" aria-labelledby="total-traces-label" aria-busy={!matrix}>
          {traces === undefined ? '—' : formatCount(traces)}
        </output>
        <span className="muted small">
          {scope ? `of ${formatCount(scope.allTotal)} in all groups` : rangeText}
        </span>
      </div>
      <CostStat traces={traces} pricePer1k={pricePer1k} scopeLabel={scope?.label ?? null}>
        <TierPriceFields prices={prices} onChange={onChange} />
      </CostStat>
      <PeriodChangeStat
        plan={plan}
        comparison={scope ? scope.comparison : comparison}
        error={comparisonError}
        lengthText={describeLength(view)}
        scopeLabel={scope?.label ?? null}
      />
      <ProjectionStat view={view} nowMs={nowMs} pricePer1k={pricePer1k} allGroups={!!scope} />
    </div>
  );
}

function describeLength(view: ResolvedUsageView): string {
  const days = Math.round((view.range.endMs - view.range.startMs) / 86_400_000);
  return days === 1 ? 'day' : `${formatCount(days)} days`;
}
