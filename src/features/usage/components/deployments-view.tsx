import { formatUtc } from '@/lib/format-utc';
import {
  DEPLOYMENT_METRICS,
  type DeploymentMetric,
} from '@contracts/usage/deployment-usage-schema';
import { useDeploymentUsage } from '../api/get-deployment-usage';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import type { UsageMatrix } from '../model/usage-matrix';
import { ChartBody } from './chart-body';
import { DEPLOYMENT_METRIC_LABELS, DeploymentStats } from './deployment-stats';
import { UsageError } from './usage-error';

const CHART_TITLES: Record<DeploymentMetric, string> = {
  nodes_executed: 'Nodes executed over time',
  agent_runs: 'Agent runs over time',
  agent_uptime_seconds: 'Agent uptime over time (seconds)',
};

interface DeploymentsViewProps {
  view: ResolvedUsageView;
  nowMs: number;
  focus: string | null;
  onFocus: (key: string | null) => void;
  onZoom: ((index: number) => void) | undefined;
  onChangeKey: () => void;
}

/**
 * The Deployments tab: three totals and one chart per metric, stacked (their units differ),
 * each zero-filled with partial buckets marked as on Traces. The previous charts stay on screen
 * while a new range loads; loading, empty, 403 and error states as on Traces.
 */
export function DeploymentsView({
  view,
  nowMs,
  focus,
  onFocus,
  onZoom,
  onChangeKey,
}: DeploymentsViewProps) {
  const usage = useDeploymentUsage(view);
  const matrices = usage.data;
  const empty = matrices && DEPLOYMENT_METRICS.every((metric) => matrices[metric].total === 0);
  return (
    <>
      <DeploymentStats matrices={usage.isPlaceholderData ? undefined : matrices} />
      {usage.isError ? (
        <UsageError
          error={usage.error}
          onRetry={() => void usage.refetch()}
          onChangeKey={onChangeKey}
        />
      ) : null}
      {!matrices && !usage.isError ? (
        <div className="chart-skeleton" role="status">
          Loading deployments usage…
        </div>
      ) : null}
      {matrices && empty ? (
        <div className="empty-state">
          <p>
            <strong>No deployment activity in this range.</strong>
          </p>
          <p>
            {`No agent ran or was up in the selected workspaces between ${formatUtc(view.range.startMs, 'MMM d, yyyy')} and ${formatUtc(view.range.endMs - 1, 'MMM d, yyyy')} (UTC).`}
          </p>
        </div>
      ) : null}
      {matrices && !empty
        ? DEPLOYMENT_METRICS.map((metric) => (
            <MetricChart
              key={metric}
              metric={metric}
              matrix={matrices[metric]}
              nowMs={nowMs}
              focus={focus}
              onFocus={onFocus}
              onZoom={onZoom}
              isFetching={usage.isFetching}
              stale={usage.isPlaceholderData}
            />
          ))
        : null}
    </>
  );
}

function MetricChart({
  metric,
  matrix,
  nowMs,
  focus,
  onFocus,
  onZoom,
  isFetching,
  stale,
}: {
  metric: DeploymentMetric;
  matrix: UsageMatrix;
  nowMs: number;
  focus: string | null;
  onFocus: (key: string | null) => void;
  onZoom: ((index: number) => void) | undefined;
  isFetching: boolean;
  stale: boolean;
}) {
  const headingId = `deployment-chart-${metric}`;
  return (
    <section
      className="panel chart-panel"
      aria-labelledby={headingId}
      aria-busy={isFetching}
      data-metric={metric}
    >
      <div className="panel-heading">
        <h3 id={headingId}>{CHART_TITLES[metric]}</h3>
        <span className="muted small">
          {isFetching ? 'Updating…' : `${DEPLOYMENT_METRIC_LABELS[metric]} · bucket start, UTC`}
        </span>
      </div>
      <ChartBody
        matrix={matrix}
        nowMs={nowMs}
        pricePer1k={null}
        focus={focus}
        onFocus={onFocus}
        onZoom={onZoom}
        stale={stale}
      />
    </section>
  );
}
