import { formatCount } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import { useMonthToDate } from '../api/get-month-to-date';
import { estimateCost, formatUsd } from '../model/cost-estimate';
import { projectMonth } from '../model/month-projection';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { endOfTodayUtc } from '../model/time-range';

/**
 * The projected end-of-month total of the current UTC month, shown when the view reaches today.
 * Labelled a projection, with its method, so no one mistakes it for a measured figure.
 */
interface ProjectionStatProps {
  view: ResolvedUsageView;
  nowMs: number;
  pricePer1k: number;
  /** A group is focused: the projection is still of every group, and says so. */
  allGroups?: boolean;
}

export function ProjectionStat({
  view,
  nowMs,
  pricePer1k,
  allGroups = false,
}: ProjectionStatProps) {
  const monthToDate = useMonthToDate(view, nowMs);
  if (view.range.endMs !== endOfTodayUtc(nowMs)) return null;
  const projection = monthToDate.data ? projectMonth(monthToDate.data, nowMs) : null;
  const monthName = formatUtc(nowMs, 'MMMM');
  return (
    <div className="stat">
      <span className="stat-label" id="projection-label">
        Projected for {monthName}
        {allGroups ? ', all groups' : ''}
      </span>
      <output className="stat-value small-value" aria-labelledby="projection-label">
        {monthToDate.isError
          ? 'Unavailable'
          : projection
            ? formatCount(projection.projected)
            : monthToDate.data
              ? 'From the 2nd'
              : '—'}
      </output>
      <span className="muted small">
        {projection
          ? `${formatUsd(estimateCost(projection.projected, pricePer1k))} at your price: ${formatCount(projection.monthToDate)} so far + ${formatCount(Math.round(projection.dailyAverage))}/day (average of ${projection.completeDays} complete ${projection.completeDays === 1 ? 'day' : 'days'}) × ${projection.remainingDays.toFixed(1)} days left`
          : 'Run rate of the complete days of the month'}
      </span>
    </div>
  );
}
