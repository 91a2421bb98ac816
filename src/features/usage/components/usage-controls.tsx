import { Field } from '@/components/ui/field';
import { lazy, Suspense, useId, type ReactNode } from 'react';
import type { GroupBy, Workspace } from '@contracts/usage/usage-schema';
import { GROUP_BY_VALUES } from '@contracts/usage/usage-values';
import type { UsageViewUpdate } from '../hooks/use-usage-view-params';
import {
  AGGREGATION_LABELS,
  AGGREGATIONS,
  aggregationsFor,
  type Aggregation,
} from '../model/aggregation';
import { deploymentGroupBy } from '../model/deployment-group-by';
import type { ResolvedUsageView, UsageTab, UsageViewParams } from '../model/resolve-usage-view';
import {
  formatUtcDate,
  RANGE_PRESET_LABELS,
  RANGE_PRESETS,
  resolvePresetRange,
  type RangePreset,
} from '../model/time-range';
import type { UsageMatrix } from '../model/usage-matrix';
import { CopyCurlButton } from './copy-curl-button';
import { ExportCsvButton } from './export-csv-button';
import { RetentionField } from './trace-fields';
import { WorkspaceFilter } from './workspace-filter';
import { DAY_MS } from '@contracts/usage/time';

// The form (react-hook-form and its resolver) is only needed for a custom range: its own chunk.
const CustomRangeForm = lazy(() =>
  import('./custom-range-form').then((module) => ({ default: module.CustomRangeForm })),
);

export const GROUP_BY_LABELS: Record<GroupBy, string> = {
  workspace: 'Workspace',
  project: 'Project',
  user: 'User',
  api_key: 'API key',
};

/** What the Deployments tab can group by: its records have no user or API key. */
const DEPLOYMENT_GROUP_BY_VALUES = ['workspace', 'project'] as const;

interface UsageControlsProps {
  /** The active tab: the Traces tab adds its retention filter (its prices are in the cost card). */
  tab: UsageTab;
  /** The tab's Copy as curl and Export CSV, in place of the Traces tab's. */
  actions?: ReactNode;
  /** The price per 1,000 traces the screen's estimates use (see `effectivePricePer1k`). */
  pricePer1k: number;
  /** The panel's id, when a disclosure button controls it (the phone layout). */
  id?: string | undefined;
  params: UsageViewParams;
  view: ResolvedUsageView | null;
  nowMs: number;
  workspaces: Workspace[];
  workspacesLoading: boolean;
  matrix: UsageMatrix | undefined;
  /** The group the chart shows alone, by name: the export says it holds every group. */
  focusLabel: string | null;
  onChange: (update: UsageViewUpdate) => void;
}

export function UsageControls({
  tab,
  actions,
  pricePer1k,
  id: panelId,
  params,
  view,
  nowMs,
  workspaces,
  workspacesLoading,
  matrix,
  focusLabel,
  onChange,
}: UsageControlsProps) {
  const id = useId();
  const changePeriod = (period: RangePreset) => {
    if (period !== 'custom') {
      // A new range gets the aggregation that suits it, not the one chosen for the last range.
      onChange({ period, from: null, to: null, aggregation: null });
      return;
    }
    // Start the custom range from what is on screen, so the chart stays put while editing.
    const range = view?.range ?? resolvePresetRange('30d', nowMs);
    onChange({
      period,
      from: formatUtcDate(range.startMs),
      to: formatUtcDate(range.endMs - 1),
      aggregation: null,
    });
  };

  return (
    <div id={panelId} className="usage-controls panel">
      <div className="control-row">
        <Field id={`${id}-range`} label="Time range">
          <select
            id={`${id}-range`}
            value={params.period}
            onChange={(event) => changePeriod(event.target.value as RangePreset)}
          >
            {RANGE_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {RANGE_PRESET_LABELS[preset]}
              </option>
            ))}
          </select>
        </Field>

        <Field id={`${id}-aggregation`} label="Aggregation">
          <select
            id={`${id}-aggregation`}
            value={view?.aggregation ?? params.aggregation ?? 'daily'}
            disabled={view !== null && view.range.endMs - view.range.startMs < DAY_MS}
            onChange={(event) => onChange({ aggregation: event.target.value as Aggregation })}
          >
            {(view ? aggregationsFor(view.range) : AGGREGATIONS).map((aggregation) => (
              <option key={aggregation} value={aggregation}>
                {AGGREGATION_LABELS[aggregation]}
              </option>
            ))}
          </select>
        </Field>

        <Field id={`${id}-group-by`} label="Group by">
          <select
            id={`${id}-group-by`}
            value={tab === 'deployments' ? deploymentGroupBy(params.groupBy) : params.groupBy}
            // A focused group belongs to the old grouping.
            onChange={(event) => onChange({ group_by: event.target.value as GroupBy, focus: null })}
          >
            {(tab === 'deployments' ? DEPLOYMENT_GROUP_BY_VALUES : GROUP_BY_VALUES).map(
              (groupBy) => (
                <option key={groupBy} value={groupBy}>
                  {GROUP_BY_LABELS[groupBy]}
                </option>
              ),
            )}
          </select>
        </Field>

        <WorkspaceFilter
          workspaces={workspaces}
          loading={workspacesLoading}
          selected={
            params.workspaces && view
              ? view.workspaceIds.length > 0 || view.droppedWorkspaceIds.length > 0
                ? view.workspaceIds
                : params.workspaces
              : params.workspaces
          }
          droppedCount={view?.droppedWorkspaceIds.length ?? 0}
          onChange={(ids) => onChange({ workspaces: ids })}
        />

        {tab === 'traces' ? <RetentionField params={params} onChange={onChange} /> : null}

        <div className="control-actions">
          {actions ?? (
            <>
              <CopyCurlButton view={view} />
              <ExportCsvButton
                view={view}
                matrix={matrix}
                pricePer1k={pricePer1k}
                focusLabel={focusLabel}
              />
            </>
          )}
        </div>
      </div>

      {params.period === 'custom' ? (
        <Suspense fallback={<p className="muted small">Loading the date fields…</p>}>
          <CustomRangeForm
            key={`${params.from}|${params.to}`}
            from={params.from}
            to={params.to}
            onApply={(from, to) => onChange({ period: 'custom', from, to, aggregation: null })}
          />
        </Suspense>
      ) : null}
      {view && view.range.endMs - view.range.startMs < DAY_MS ? (
        <p className="muted small">Ranges shorter than a day are shown in hourly buckets.</p>
      ) : null}
    </div>
  );
}
