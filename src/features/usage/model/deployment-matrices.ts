import type { BucketGrid } from '@contracts/usage/bucket-grid';
import {
  DEPLOYMENT_CSV_COLUMNS,
  DEPLOYMENT_METRICS,
  DEPLOYMENT_VALUE_COLUMNS,
  type DeploymentMetric,
  type DeploymentUsageRecord,
} from '@contracts/usage/deployment-usage-schema';
import { csvFilledColumns, type GroupBy } from '@contracts/usage/usage-schema';
import { formatCsvRow, type CsvCell } from '@contracts/usage/csv';
import { buildUsageMatrix, type UsageMatrix } from './usage-matrix';

/** One zero-filled matrix per metric: the Deployments tab draws each on its own chart. */
export type DeploymentMatrices = Record<DeploymentMetric, UsageMatrix>;

/** The records summed into the screen's buckets, one matrix per metric. */
export function buildDeploymentMatrices(
  records: readonly DeploymentUsageRecord[],
  grid: BucketGrid,
  groupBy: GroupBy,
): DeploymentMatrices {
  const matrixOf = (metric: DeploymentMetric) =>
    buildUsageMatrix(
      records.map((record) => ({
        time_bucket: record.time_bucket,
        dimensions: record.dimensions,
        traces: record[metric],
      })),
      grid,
      groupBy,
    );
  return {
    nodes_executed: matrixOf('nodes_executed'),
    agent_runs: matrixOf('agent_runs'),
    agent_uptime_seconds: matrixOf('agent_uptime_seconds'),
  };
}

/**
 * The screen's deployments buckets as CSV, in the server's columns (`DEPLOYMENT_CSV_COLUMNS`):
 * bucket by bucket, groups in label order, a row wherever a metric is above zero; the group's
 * context columns filled with `includeContext` (as the API's `include_context=true`).
 */
export function deploymentMatricesToCsv(
  matrices: DeploymentMatrices,
  groupBy: GroupBy,
  options: { includeContext?: boolean } = {},
): string {
  const dimensionColumns: Partial<Record<string, string>> = csvFilledColumns(groupBy, options);
  const metricColumns: Partial<Record<string, DeploymentMetric>> = DEPLOYMENT_VALUE_COLUMNS;
  const { grid, series } = matrices.nodes_executed;
  const ordered = [...series].sort((a, b) => a.label.localeCompare(b.label));
  const lines = [formatCsvRow(DEPLOYMENT_CSV_COLUMNS)];
  grid.starts().forEach((startMs, index) => {
    for (const item of ordered) {
      const value = (metric: DeploymentMetric) =>
        matrices[metric].values.get(item.key)?.[index] ?? 0;
      if (DEPLOYMENT_METRICS.every((metric) => value(metric) === 0)) continue;
      const dimensions: Record<string, string | null | undefined> = item.dimensions;
      const cells = DEPLOYMENT_CSV_COLUMNS.map((column): CsvCell => {
        if (column === 'Time Bucket Start') return new Date(startMs).toISOString();
        if (column === 'Time Bucket End') return new Date(grid.end(index)).toISOString();
        const metric = metricColumns[column];
        if (metric) return value(metric);
        const field = dimensionColumns[column];
        return field ? dimensions[field] : '';
      });
      lines.push(formatCsvRow(cells));
    }
  });
  return lines.join('');
}

/**
 * A seconds matrix in hours (one decimal), as the uptime chart draws it: the card beside it says
 * hours too, so the two read in one unit.
 */
export function secondsToHours(matrix: UsageMatrix): UsageMatrix {
  const hours = (seconds: number) => Math.round(seconds / 360) / 10;
  return {
    ...matrix,
    values: new Map([...matrix.values].map(([key, values]) => [key, values.map(hours)])),
    totals: new Map([...matrix.totals].map(([key, total]) => [key, hours(total)])),
    bucketTotals: matrix.bucketTotals.map(hours),
    total: hours(matrix.total),
  };
}
