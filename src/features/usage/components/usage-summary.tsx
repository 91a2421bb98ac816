import { formatCount } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import type { GroupComparison } from '../model/group-comparison';
import type { ComparisonPlan } from '../model/measured-comparison';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import type { UsageMatrix } from '../model/usage-matrix';
import { CostStat } from './cost-stat';
import { PeriodChangeStat } from './period-change-stat';
import { ProjectionStat } from './projection-stat';
import { GROUP_BY_LABELS } from './usage-controls';

interface UsageSummaryProps {
  view: ResolvedUsageView;
  matrix: UsageMatrix | undefined;
  plan: ComparisonPlan;
  comparison: GroupComparison | undefined;
  comparisonError: boolean;
  nowMs: number;
  pricePer1k: number;
}

export function UsageSummary({
  view,
  matrix,
  plan,
  comparison,
  comparisonError,
  nowMs,
  pricePer1k,
}: UsageSummaryProps) {
  const lastDayMs = view.range.endMs - 1;
  const rangeText = `${formatUtc(view.range.startMs, 'MMM d, yyyy')} – ${formatUtc(lastDayMs, 'MMM d, yyyy')} (UTC)`;

  return (
    <div className="usage-summary">
      <div className="stat">
        <span className="stat-label" id="total-traces-label">
          Total traces
        </span>
        <output className="stat-value" aria-labelledby="total-traces-label" aria-busy={!matrix}>
          {matrix ? formatCount(matrix.total) : '—'}
        </output>
        <span className="muted small">{rangeText}</span>
      </div>
      <CostStat traces={matrix?.total} pricePer1k={pricePer1k} />
      <PeriodChangeStat
        plan={plan}
        comparison={comparison}
        error={comparisonError}
        lengthText={describeLength(view)}
      />
      <ProjectionStat view={view} nowMs={nowMs} pricePer1k={pricePer1k} />
      <div className="stat stat-groups">
        <span className="stat-label">Groups</span>
        <span className="stat-value small-value">
          {matrix ? formatCount(matrix.series.length) : '—'}
        </span>
        <span className="muted small">by {GROUP_BY_LABELS[view.groupBy].toLowerCase()}</span>
      </div>
    </div>
  );
}

function describeLength(view: ResolvedUsageView): string {
  const days = Math.round((view.range.endMs - view.range.startMs) / 86_400_000);
  return days === 1 ? 'day' : `${formatCount(days)} days`;
}
