import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { useMediaQuery } from '@/components/ui/use-media-query';
import { useToggle } from '@/components/ui/use-toggle';
import { useTierTotals } from '../api/get-tier-totals';
import { useUsageMatrix } from '../api/get-usage-matrix';
import { useComparisonTotals } from '../api/get-comparison-totals';
import { useWorkspaces } from '../api/get-workspaces';
import { useSignsIn } from '@/lib/console-session';
import { UsageConnectionProvider } from '../api/usage-connection';
import { useTableParams } from '../hooks/use-table-params';
import { useUsageViewParams } from '../hooks/use-usage-view-params';
import { focusScope } from '../model/focus-scope';
import { groupComparison } from '../model/group-comparison';
import { planComparison } from '../model/measured-comparison';
import {
  isQueryable,
  resolveUsageView,
  type ResolvedUsageView,
  type UsageTab,
} from '../model/resolve-usage-view';
import { effectivePricePer1k } from '../model/tier-cost';
import { describeCustomRangeProblem } from '../model/time-range';
import { canZoom, zoomTarget } from '../model/zoom';
import { ConnectionSettings } from './connection-settings';
import { DataFloorNotice, useDataFloor } from './data-floor-notice';
import { DataFreshness, TRACES_COUNTING_RULE } from './data-freshness';
import type { DomainTabProps } from './domain-tab';
import { DroppedWorkspacesNotice } from './dropped-workspaces-notice';
import { FiltersSummary } from './filters-summary';
import { FocusBar } from './focus-bar';
import { preloadUsageChart, UsageChartPanel } from './usage-chart-panel';
import { UsageControls } from './usage-controls';
import { UsageError } from './usage-error';
import { UsageSummary } from './usage-summary';
import { UnreadLinkNotice } from './unread-link-notice';
import { tabId, tabPanelId, UsageTabs } from './usage-tabs';
import './usage.css';

/**
 * The domain tabs beyond traces, each loaded when it is opened: the usage tab's first load
 * (Traces) has a 190 KB budget and draws none of them. A tab's view and its actions (curl, CSV)
 * are chunks of their own.
 */
const DOMAIN_TABS: Record<
  Exclude<UsageTab, 'traces'>,
  {
    View: ComponentType<DomainTabProps>;
    Actions: ComponentType<{ view: ResolvedUsageView | null }>;
    loading: string;
  }
> = {
  deployments: {
    View: lazy(() =>
      import('./deployments-view').then((module) => ({ default: module.DeploymentsView })),
    ),
    Actions: lazy(() =>
      import('./deployment-actions').then((module) => ({ default: module.DeploymentActions })),
    ),
    loading: 'Loading the Deployments tab…',
  },
  llm: {
    View: lazy(() =>
      import('./llm-usage-view').then((module) => ({ default: module.LlmUsageView })),
    ),
    Actions: lazy(() => import('./llm-actions').then((module) => ({ default: module.LlmActions }))),
    loading: 'Loading the LLM tab…',
  },
};
// The limits card and the table sit below the chart: their code loads beside the first
// screen's, not in it.
const UsageTable = lazy(() =>
  import('./usage-table').then((module) => ({ default: module.UsageTable })),
);
const UsageLimitsPanel = lazy(() =>
  import('./usage-limits-panel').then((module) => ({ default: module.UsageLimitsPanel })),
);

export function GranularUsageTab() {
  return (
    <UsageConnectionProvider>
      <GranularUsageView />
    </UsageConnectionProvider>
  );
}

function GranularUsageView() {
  const [params, setParams] = useUsageViewParams();
  const table = useTableParams();
  // "Now" is read once per visit: presets resolve to whole UTC days, so it only matters at midnight.
  const [nowMs] = useState(() => Date.now());
  // Start the chart chunk now, not once the data is in (a module load, not a data fetch).
  useEffect(() => {
    void preloadUsageChart();
  }, []);
  const connectionToggle = useToggle();
  const signsIn = useSignsIn();
  // On a phone the controls fold into one summary line, so the chart is on the first screen.
  const narrow = useMediaQuery('(max-width: 640px)');
  const filters = useToggle();
  const openConnection = () => {
    connectionToggle.setOpen(true);
    window.scrollTo({ top: 0 });
  };
  const workspaces = useWorkspaces();
  const readableIds = workspaces.data?.map((workspace) => workspace.id) ?? [];
  const view = workspaces.data ? resolveUsageView(params, nowMs, readableIds) : null;
  const { tab } = params;
  const domain = tab === 'traces' ? null : DOMAIN_TABS[tab];
  // Each tab asks only for its own domain; both share the range, grouping and workspaces.
  const tracesView = tab === 'traces' ? view : null;
  const matrix = useUsageMatrix(tracesView);
  const tierTotals = useTierTotals(tracesView);
  // The screen's estimates at each tier's price (a blend of both over every tier).
  const prices = { base: params.pricePer1k, extended: params.extendedPricePer1k };
  const pricePer1k = effectivePricePer1k(view?.traceTier ?? null, tierTotals.data, prices);
  const floorMs = useDataFloor();
  const plan = view ? planComparison(view.range, floorMs, nowMs) : null;
  const totals = useComparisonTotals(tracesView, plan);
  const current = matrix.isPlaceholderData ? undefined : matrix.data;
  const comparison =
    matrix.data && plan ? groupComparison(matrix.data, plan, totals.data) : undefined;
  const focusGroup = (key: string | null) => void setParams({ focus: key });
  const showProjects = (workspaceId: string) =>
    void setParams({ group_by: 'project', workspaces: [workspaceId], focus: null });
  // The cards follow the chart's focus; the focus bar above them says what they show.
  const scope = matrix.data ? focusScope(matrix.data, params.focus, comparison) : null;
  // A bar opens its bucket one level finer, as a custom range: Back returns to this view.
  const zoom =
    current && view && canZoom(view.aggregation)
      ? (index: number) => {
          const target = zoomTarget(current.grid, index, view.range, view.aggregation);
          if (target) void setParams({ period: 'custom', ...target });
        }
      : undefined;

  const summary =
    view && plan ? (
      <UsageSummary
        view={view}
        matrix={matrix.data}
        plan={plan}
        comparison={comparison}
        comparisonError={totals.isError}
        nowMs={nowMs}
        pricePer1k={pricePer1k}
        prices={prices}
        onChange={setParams}
        scope={scope}
      />
    ) : null;
  const chart = view ? (
    <UsageChartPanel
      view={view}
      matrix={matrix.data}
      nowMs={nowMs}
      pricePer1k={pricePer1k}
      focus={params.focus}
      onFocus={focusGroup}
      onZoom={zoom}
      isFetching={matrix.isFetching}
      isPlaceholder={matrix.isPlaceholderData}
      error={matrix.isError ? matrix.error : null}
      onRetry={() => void matrix.refetch()}
      onChangeKey={openConnection}
    />
  ) : null;

  return (
    <section className="usage" aria-labelledby="granular-usage-heading">
      {/* The section's name and where its data comes from, then its one tab bar. */}
      <div className="usage-heading-row">
        <h2 id="granular-usage-heading">Granular Usage</h2>
        {signsIn ? null : <ConnectionSettings toggle={connectionToggle} />}
      </div>
      <UsageTabs tab={tab} onSelect={(next) => void setParams({ tab: next, focus: null })} />

      {narrow ? (
        <FiltersSummary
          params={params}
          view={view}
          workspaceCount={readableIds.length}
          toggle={filters}
        />
      ) : null}
      {narrow && !filters.open ? null : (
        <UsageControls
          tab={tab}
          pricePer1k={pricePer1k}
          actions={
            domain ? (
              <Suspense fallback={null}>
                <domain.Actions view={view} />
              </Suspense>
            ) : undefined
          }
          id={narrow ? filters.panelId : undefined}
          params={params}
          view={view}
          nowMs={nowMs}
          workspaces={workspaces.data ?? []}
          workspacesLoading={workspaces.isPending}
          matrix={current}
          focusLabel={scope?.label ?? null}
          onChange={setParams}
        />
      )}

      {workspaces.isError ? (
        <UsageError
          error={workspaces.error}
          onRetry={() => void workspaces.refetch()}
          onChangeKey={openConnection}
        />
      ) : null}
      <UnreadLinkNotice />
      {params.period === 'custom' && !view && workspaces.data ? (
        <p className="notice" role="status">
          {describeCustomRangeProblem(params.from, params.to)}
        </p>
      ) : null}
      {view ? <DataFloorNotice range={view.range} /> : null}
      {view ? (
        <DroppedWorkspacesNotice
          dropped={view.droppedWorkspaceIds}
          remaining={view.workspaceIds.length}
        />
      ) : null}
      {view &&
      workspaces.data &&
      view.workspaceIds.length === 0 &&
      view.droppedWorkspaceIds.length === 0 ? (
        <p className="notice" role="status">
          {readableIds.length === 0
            ? 'This API key cannot read any workspace, so there is no usage to show.'
            : 'No workspace is selected. Choose at least one in the Workspaces filter.'}
        </p>
      ) : null}

      {isQueryable(view) && domain && plan ? (
        <div role="tabpanel" id={tabPanelId(tab)} aria-labelledby={tabId(tab)}>
          <Suspense fallback={<p className="muted">{domain.loading}</p>}>
            <domain.View
              view={view}
              chart={{ nowMs, focus: params.focus, onFocus: focusGroup, onZoom: zoom }}
              plan={plan}
              onShowProjects={showProjects}
              onChangeKey={openConnection}
            />
          </Suspense>
        </div>
      ) : null}
      {isQueryable(view) && tab === 'traces' && plan ? (
        <div role="tabpanel" id={tabPanelId(tab)} aria-labelledby={tabId(tab)}>
          <DataFreshness updatedAtMs={current ? matrix.dataUpdatedAt : null}>
            {TRACES_COUNTING_RULE}
          </DataFreshness>
          {matrix.data && params.focus !== null ? (
            <FocusBar
              matrix={matrix.data}
              groupBy={view.groupBy}
              focus={params.focus}
              onFocus={focusGroup}
              onShowProjects={showProjects}
            />
          ) : null}
          {/* A phone shows the chart first: its first screen holds the plot, the cards follow. */}
          {narrow ? (
            <>
              {chart}
              {summary}
            </>
          ) : (
            <>
              {summary}
              {chart}
            </>
          )}
          {/* Below the chart: the first screen keeps the controls, the cards and the plot. */}
          <Suspense fallback={<p className="panel muted">Loading usage limits…</p>}>
            <UsageLimitsPanel
              workspaceIds={view.workspaceIds}
              workspaces={workspaces.data ?? []}
              nowMs={nowMs}
            />
          </Suspense>
          {matrix.data && matrix.data.series.length > 0 ? (
            <Suspense fallback={<p className="panel muted">Loading the table…</p>}>
              <UsageTable
                matrix={matrix.data}
                groupBy={view.groupBy}
                comparison={comparison}
                pricePer1k={pricePer1k}
                focus={params.focus}
                onFocus={focusGroup}
                stale={matrix.isPlaceholderData}
                search={table.search}
                sort={table.sort}
                onSearch={table.setSearch}
                onSort={table.setSort}
              />
            </Suspense>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
