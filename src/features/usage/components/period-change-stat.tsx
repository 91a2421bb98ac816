import { formatCount, formatSignedCount, formatSignedPercent } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import { comparePeriods, type PeriodChange } from '../model/compare-periods';
import type { GroupComparison } from '../model/group-comparison';
import type { ComparisonPlan } from '../model/measured-comparison';

interface PeriodChangeStatProps {
  plan: ComparisonPlan;
  comparison: GroupComparison | undefined;
  error: boolean;
  /** "30 days", "day": the view's length. */
  lengthText: string;
  /** The focused group's name: the change is of its traces only. */
  scopeLabel?: string | null;
}

/** The card that compares with the previous period, saying in words what was measured. */
export function PeriodChangeStat({
  plan,
  comparison,
  error,
  lengthText,
  scopeLabel = null,
}: PeriodChangeStatProps) {
  const change = !comparison
    ? null
    : comparison.measured
      ? comparePeriods(comparison.current.total, comparison.previous.total)
      : comparePeriods(0, 0, false);
  return (
    <div className="stat">
      <span className="stat-label" id="period-change-label">
        {scopeLabel
          ? `${scopeLabel} vs. the previous ${lengthText}`
          : `Compared with the previous ${lengthText}`}
      </span>
      {/* Neutral: more traces is not good news for a bill, nor fewer bad; the arrow says which. */}
      <output className="stat-change" aria-labelledby="period-change-label">
        {error ? 'Unavailable' : change ? `${changeArrow(change)}${describeChange(change)}` : '—'}
      </output>
      <span className="muted small">{describeBasis(plan, comparison)}</span>
    </div>
  );
}

export function describeChange(change: PeriodChange): string {
  switch (change.kind) {
    case 'unmeasured':
      return 'Not measured';
    case 'none':
      return 'No traces in either period';
    case 'from-zero':
      return `${formatSignedCount(change.delta)} (none before)`;
    case 'change':
      return `${formatSignedPercent(change.ratio)} (${formatSignedCount(change.delta)})`;
  }
}

const floorText = (floorMs: number) => formatUtc(floorMs, 'd MMM yyyy');

function describeBasis(plan: ComparisonPlan, comparison: GroupComparison | undefined): string {
  if (plan.kind === 'unmeasured') {
    return `Previous period not measured: no data before ${floorText(plan.floorMs)}`;
  }
  const before = comparison?.measured
    ? `${formatCount(comparison.previous.total)} traces before`
    : '';
  // A view running past now: both sides end at the same minute of their period.
  const toTime = plan.toMs === null ? '' : `, both to ${formatUtc(plan.toMs, 'HH:mm')} UTC`;
  if (!plan.clipped) return before ? `${before}${toTime}` : ' ';
  const days =
    plan.days === 1 ? 'the 1 measured day' : `the ${formatCount(plan.days)} measured days`;
  // Both sides are the last `days` days of their period, so the figure compares like with like.
  return `Comparing ${days}, the last of each period${toTime} (no data before ${floorText(plan.previous.startMs)})${before ? `; ${before}` : ''}`;
}

function changeArrow(change: PeriodChange): string {
  if (change.kind === 'none' || change.kind === 'unmeasured' || change.delta === 0) return '';
  return change.delta > 0 ? '▲ ' : '▼ ';
}
