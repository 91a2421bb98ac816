import type { useToggle } from '@/components/ui/use-toggle';
import type { GroupBy } from '@contracts/usage/usage-schema';
import { AGGREGATION_LABELS } from '../model/aggregation';
import type { ResolvedUsageView, UsageViewParams } from '../model/resolve-usage-view';
import { RANGE_PRESET_LABELS } from '../model/time-range';

const GROUPED_BY: Record<GroupBy, string> = {
  workspace: 'by workspace',
  project: 'by project',
  user: 'by user',
  api_key: 'by API key',
};

interface FiltersSummaryProps {
  params: UsageViewParams;
  view: ResolvedUsageView | null;
  workspaceCount: number;
  toggle: ReturnType<typeof useToggle>;
}

/**
 * On a phone the controls are folded behind one line saying what they are set to, so the chart
 * is on the first screen; the line is the button that opens them.
 */
export function FiltersSummary({ params, view, workspaceCount, toggle }: FiltersSummaryProps) {
  const range =
    params.period === 'custom' && params.from && params.to
      ? `${params.from} – ${params.to}`
      : RANGE_PRESET_LABELS[params.period];
  const workspaces = view
    ? view.workspaceIds.length === workspaceCount
      ? 'all workspaces'
      : `${view.workspaceIds.length} of ${workspaceCount} workspaces`
    : '';
  const parts = [
    range,
    view ? AGGREGATION_LABELS[view.aggregation] : null,
    GROUPED_BY[params.groupBy],
    workspaces,
  ].filter(Boolean);
  return (
    <button type="button" className="filters-summary panel" {...toggle.buttonProps}>
      <span className="filters-summary-label">{toggle.open ? 'Hide filters' : 'Filters'}</span>
      <span className="filters-summary-text">{parts.join(' · ')}</span>
    </button>
  );
}
