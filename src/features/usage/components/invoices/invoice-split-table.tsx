import type { InvoiceSplit } from '@contracts/usage/billing-schema';
import type { UsageMetric } from '@contracts/usage/pricing';
import { formatUsd } from '@/features/usage/model/cost-estimate';
import { InvoiceTableScroll } from './invoice-table-scroll';

const count = new Intl.NumberFormat('en-US');
const hours = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
/** Every metric the amount is a share of, so a row's amount has each of its causes beside it. */
const COLUMNS: { metric: UsageMetric; label: string; format: (quantity: number) => string }[] = [
  { metric: 'base_traces', label: 'Base traces', format: (n) => count.format(n) },
  { metric: 'extended_upgrades', label: 'Upgrades', format: (n) => count.format(n) },
  { metric: 'deployment_runs', label: 'Agent runs', format: (n) => count.format(n) },
  {
    metric: 'deployment_uptime_seconds',
    label: 'Uptime (hours)',
    format: (seconds) => hours.format(seconds / 3600),
  },
];

/**
 * Who drives the month: each workspace's or project's quantities and its share of the usage
 * amounts (by quantity, to the cent; seats are the organization's and are not shared), the
 * largest amount first (ties in the server's order: workspace, then project).
 */
export function InvoiceSplitTable({
  caption,
  splits,
  byProject,
}: {
  caption: string;
  splits: readonly InvoiceSplit[];
  byProject: boolean;
}) {
  const quantity = (split: InvoiceSplit, metric: UsageMetric) =>
    split.lines.find((line) => line.metric === metric)?.quantity ?? 0;
  const largestFirst = [...splits].sort((a, b) => b.total - a.total);
  return (
    <InvoiceTableScroll caption={caption}>
      <table className="data-table invoice-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Workspace</th>
            {byProject ? <th scope="col">Project</th> : null}
            {COLUMNS.map((column) => (
              <th key={column.metric} scope="col" className="num">
                {column.label}
              </th>
            ))}
            <th scope="col" className="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {largestFirst.map((split) => (
            <tr key={`${split.workspace_id}/${split.project_id ?? ''}`}>
              <th scope="row">{split.workspace_name ?? split.workspace_id}</th>
              {byProject ? <td>{split.project_name ?? split.project_id}</td> : null}
              {COLUMNS.map((column) => (
                <td key={column.metric} className="num">
                  {column.format(quantity(split, column.metric))}
                </td>
              ))}
              <td className="num">{formatUsd(split.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </InvoiceTableScroll>
  );
}
