import { formatCount, formatPercent, formatSignedCount, formatUtc } from '@/lib/format';
import type { PeriodTotals } from '../api/get-previous-totals';
import { comparePeriods } from '../model/compare-periods';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import type { UsageMatrix } from '../model/usage-matrix';
import { GROUP_BY_LABELS } from './usage-controls';

interface UsageSummaryProps {
  view: ResolvedUsageView;
  matrix: UsageMatrix | undefined;
  previous: PeriodTotals | undefined;
  previousError: boolean;
}

export function UsageSummary({ view, matrix, previous, previousError }: UsageSummaryProps) {
  const lastDayMs = view.range.endMs - 1;
  const rangeText = `${formatUtc(view.range.startMs, 'MMM d, yyyy')} – ${formatUtc(lastDayMs, 'MMM d, yyyy')} (UTC)`;
  const change = matrix && previous ? comparePeriods(matrix.total, previous.total) : null;

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
      <div className="stat">
        <span className="stat-label">Compared with the previous {describeLength(view)}</span>
        <span className={`stat-change ${changeTone(change)}`}>
          {previousError
            ? 'Unavailable'
            : !change
              ? '—'
              : change.kind === 'new'
                ? `New (${formatSignedCount(change.delta)})`
                : change.kind === 'none'
                  ? 'No traces in either period'
                  : `${change.ratio >= 0 ? '+' : '−'}${formatPercent(Math.abs(change.ratio))} (${formatSignedCount(change.delta)})`}
        </span>
        <span className="muted small">
          {previous ? `${formatCount(previous.total)} traces before` : ' '}
        </span>
      </div>
      <div className="stat">
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
  return days === 1 ? 'day' : `${days} days`;
}

function changeTone(change: ReturnType<typeof comparePeriods> | null): string {
  if (!change || change.kind === 'none') return '';
  return change.delta >= 0 ? 'up' : 'down';
}
