import { useState } from 'react';
import { useUsageMatrix } from '../api/get-usage-matrix';
import { usePreviousTotals } from '../api/get-previous-totals';
import { useWorkspaces } from '../api/get-workspaces';
import { UsageConnectionProvider } from '../api/usage-connection';
import { useUsageViewParams } from '../hooks/use-usage-view-params';
import { isQueryable, resolveUsageView } from '../model/resolve-usage-view';
import { ConnectionSettings } from './connection-settings';
import { DataFloorNotice } from './data-floor-notice';
import { DataFreshness } from './data-freshness';
import { UsageChartPanel } from './usage-chart-panel';
import { UsageControls } from './usage-controls';
import { UsageError } from './usage-error';
import { UsageSummary } from './usage-summary';
import { UsageTable } from './usage-table';
import './usage.css';

export function GranularUsageTab() {
  return (
    <UsageConnectionProvider>
      <GranularUsageView />
    </UsageConnectionProvider>
  );
}

function GranularUsageView() {
  const [params, setParams] = useUsageViewParams();
  // "Now" is read once per visit: presets resolve to whole UTC days, so it only matters at midnight.
  const [nowMs] = useState(() => Date.now());
  const workspaces = useWorkspaces();
  const readableIds = workspaces.data?.map((workspace) => workspace.id) ?? [];
  const view = workspaces.data ? resolveUsageView(params, nowMs, readableIds) : null;
  const matrix = useUsageMatrix(view);
  const previous = usePreviousTotals(view);
  const current = matrix.isPlaceholderData ? undefined : matrix.data;

  return (
    <section className="usage" aria-labelledby="granular-usage-heading">
      <div className="usage-heading-row">
        <div>
          <h2 id="granular-usage-heading">Granular Usage</h2>
          <p className="muted">
            Traces per time bucket. Buckets start at 00:00 UTC; the last one may be partial.
          </p>
          <DataFreshness updatedAtMs={current ? matrix.dataUpdatedAt : null} />
        </div>
        <ConnectionSettings />
      </div>

      <UsageControls
        params={params}
        view={view}
        nowMs={nowMs}
        workspaces={workspaces.data ?? []}
        workspacesLoading={workspaces.isPending}
        matrix={current}
        onChange={setParams}
      />

      {workspaces.isError ? (
        <UsageError error={workspaces.error} onRetry={() => void workspaces.refetch()} />
      ) : null}
      {params.period === 'custom' && !view && workspaces.data ? (
        <p className="notice" role="status">
          Choose a start and an end date to see usage for a custom range.
        </p>
      ) : null}
      {view ? <DataFloorNotice range={view.range} /> : null}
      {view && workspaces.data && view.workspaceIds.length === 0 ? (
        <p className="notice" role="status">
          {readableIds.length === 0
            ? 'This API key cannot read any workspace, so there is no usage to show.'
            : 'No workspace is selected. Choose at least one in the Workspaces filter.'}
        </p>
      ) : null}

      {isQueryable(view) ? (
        <>
          <UsageSummary
            view={view}
            matrix={matrix.data}
            previous={previous.data}
            previousError={previous.isError}
          />
          <UsageChartPanel
            view={view}
            matrix={matrix.data}
            nowMs={nowMs}
            isFetching={matrix.isFetching}
            isPlaceholder={matrix.isPlaceholderData}
            error={matrix.isError ? matrix.error : null}
            onRetry={() => void matrix.refetch()}
          />
          {matrix.data && matrix.data.series.length > 0 ? (
            <UsageTable
              matrix={matrix.data}
              groupBy={view.groupBy}
              previous={previous.data}
              stale={matrix.isPlaceholderData}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
