import { formatCount } from '@/lib/format';
import {
  DEPLOYMENT_METRICS,
  type DeploymentMetric,
} from '@contracts/usage/deployment-usage-schema';
import type { DeploymentMatrices } from '../model/deployment-matrices';

export const DEPLOYMENT_METRIC_LABELS: Record<DeploymentMetric, string> = {
  nodes_executed: 'Nodes executed',
  agent_runs: 'Agent runs',
  agent_uptime_seconds: 'Agent uptime (hours)',
};

const HOUR = 3600;

/** Uptime seconds as the card shows them: hours with one decimal ("1,234.5"), as its chart. */
export function formatUptime(seconds: number): string {
  const hours = seconds / HOUR;
  return hours.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

const NOTES: Record<DeploymentMetric, (total: number) => string> = {
  nodes_executed: () => 'Node executions (tasks) of every run',
  agent_runs: () => 'Runs the deployments executed',
  agent_uptime_seconds: () => 'Summed across replicas',
};

/** The Deployments tab's three totals over the view: nodes executed, agent runs, uptime. */
export function DeploymentStats({ matrices }: { matrices: DeploymentMatrices | undefined }) {
  return (
    <div className="usage-summary">
      {DEPLOYMENT_METRICS.map((metric) => {
        const total = matrices?.[metric].total;
        const labelId = `deployment-stat-${metric}`;
        return (
          <div className="stat" key={metric}>
            <span className="stat-label" id={labelId}>
              {DEPLOYMENT_METRIC_LABELS[metric]}
            </span>
            <output className="stat-value" aria-labelledby={labelId} aria-busy={!matrices}>
              {total === undefined
                ? '—'
                : metric === 'agent_uptime_seconds'
                  ? formatUptime(total)
                  : formatCount(total)}
            </output>
            <span className="muted small">{total === undefined ? '' : NOTES[metric](total)}</span>
          </div>
        );
      })}
    </div>
  );
}
