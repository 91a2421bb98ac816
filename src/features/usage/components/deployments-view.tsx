import { formatUtc } from '@/lib/format-utc';
import {
  DEPLOYMENT_METRICS,
  type DeploymentMetric,
} from '@contracts/usage/deployment-usage-schema';
import { useDeploymentUsage } from '../api/get-deployment-usage';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { secondsToHours } from '../model/deployment-matrices';
import type { UsageMatrix } from '../model/usage-matrix';
import { ChartBody } from './chart-body';
import { DataFreshness, DEPLOYMENTS_COUNTING_RULE } from './data-freshness';
import { DeploymentStats } from './deployment-stats';
import { UsageError } from './usage-error';

const CHART_TITLES: Record<DeploymentMetric, string> = {
  nodes_executed: 'Nodes executed over time',
  agent_runs: 'Agent runs over time',
  agent_uptime_seconds: 'Agent uptime over time (hours)',
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
 * The Deployments tab: three totals and one chart per metric, stacked in one panel (their units
 * differ), each zero-filled with partial buckets marked as on Traces. The previous charts stay on screen
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
      <DataFreshness
        updatedAtMs={matrices && !usage.isPlaceholderData ? usage.dataUpdatedAt : null}
      >
        {DEPLOYMENTS_COUNTING_RULE}
      </DataFreshness>
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
      {matrices && !empty ? (
        <section
          className="panel chart-panel deployment-charts"
          aria-labelledby="deployment-charts-heading"
          aria-busy={usage.isFetching}
        >
          <div className="panel-heading">
            <h3 id="deployment-charts-heading">Deployments over time</h3>
            <span className="muted small">
              {usage.isFetching ? 'Updating…' : 'Bucket start, UTC'}
            </span>
          </div>
          {DEPLOYMENT_METRICS.map((metric, index) => (
            <MetricChart
              key={metric}
              metric={metric}
              matrix={matrices[metric]}
              rankBy={matrices.agent_runs}
              last={index === DEPLOYMENT_METRICS.length - 1}
              nowMs={nowMs}
              focus={focus}
              onFocus={onFocus}
              onZoom={onZoom}
              stale={usage.isPlaceholderData}
            />
          ))}
        </section>
      ) : null}
    </>
  );
}

/**
 * One metric's chart. The three share the panel's legend and notes (drawn under the last) and
 * its colours: each ranks its groups by agent runs, so a group has one colour on all three.
 */
function MetricChart({
  metric,
  matrix,
  rankBy,
  last,
  nowMs,
  focus,
  onFocus,
  onZoom,
  stale,
}: {
  metric: DeploymentMetric;
  matrix: UsageMatrix;
  rankBy: UsageMatrix;
  last: boolean;
  nowMs: number;
  focus: string | null;
  onFocus: (key: string | null) => void;
  onZoom: ((index: number) => void) | undefined;
  stale: boolean;
}) {
  const headingId = `deployment-chart-${metric}`;
  const hours = metric === 'agent_uptime_seconds';
  return (
    <section className="deployment-chart" aria-labelledby={headingId} data-metric={metric}>
      <h4 id={headingId} className="deployment-chart-title">
        {CHART_TITLES[metric]}
      </h4>
      <ChartBody
        matrix={hours ? secondsToHours(matrix) : matrix}
        rankBy={rankBy}
        decorations={last}
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
