import {
  DEPLOYMENT_METRICS,
  type DeploymentMetric,
} from '@contracts/usage/deployment-usage-schema';
import { useDeploymentUsage } from '../api/get-deployment-usage';
import { secondsToHours } from '../model/deployment-matrices';
import type { UsageMatrix } from '../model/usage-matrix';
import { ChartBody } from './chart-body';
import { DEPLOYMENTS_COUNTING_RULE } from './data-freshness';
import { DeploymentStats } from './deployment-stats';
import { DomainUsageView, type DomainTabProps, type SharedChartProps } from './domain-tab';

const CHART_TITLES: Record<DeploymentMetric, string> = {
  nodes_executed: 'Nodes executed over time',
  agent_runs: 'Agent runs over time',
  agent_uptime_seconds: 'Agent uptime over time (hours)',
};

/**
 * The Deployments tab: three totals and one chart per metric, stacked in one panel (their units
 * differ), each zero-filled with partial buckets marked as on Traces.
 */
export function DeploymentsView({ view, chart, onChangeKey }: DomainTabProps) {
  const usage = useDeploymentUsage(view);
  return (
    <DomainUsageView
      view={view}
      usage={usage}
      countingRule={DEPLOYMENTS_COUNTING_RULE}
      cards={<DeploymentStats matrices={usage.isPlaceholderData ? undefined : usage.data} />}
      loadingWhat="deployments usage"
      isEmpty={(matrices) => DEPLOYMENT_METRICS.every((metric) => matrices[metric].total === 0)}
      empty={{
        title: 'No deployment activity in this range.',
        nothing: 'No agent ran or was up',
      }}
      panel={{
        className: 'panel chart-panel deployment-charts',
        headingId: 'deployment-charts-heading',
        title: 'Deployments over time',
        aside: (
          <span className="muted small">
            {usage.isFetching ? 'Updating…' : 'Bucket start, UTC'}
          </span>
        ),
      }}
      onChangeKey={onChangeKey}
    >
      {(matrices) =>
        DEPLOYMENT_METRICS.map((metric, index) => (
          <MetricChart
            key={metric}
            metric={metric}
            matrix={matrices[metric]}
            rankBy={matrices.agent_runs}
            last={index === DEPLOYMENT_METRICS.length - 1}
            chart={chart}
            stale={usage.isPlaceholderData}
          />
        ))
      }
    </DomainUsageView>
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
  chart,
  stale,
}: {
  metric: DeploymentMetric;
  matrix: UsageMatrix;
  rankBy: UsageMatrix;
  last: boolean;
  chart: SharedChartProps;
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
        {...chart}
        matrix={hours ? secondsToHours(matrix) : matrix}
        rankBy={rankBy}
        decorations={last}
        pricePer1k={null}
        stale={stale}
      />
    </section>
  );
}
