import type { BucketGrid } from '@contracts/usage/bucket-grid';
import { formatCsvRow, type CsvCell } from '@contracts/usage/csv';
import { domainCsvColumns } from '@contracts/usage/domain-usage-schema';
import type { Stride } from '@contracts/usage/usage-schema';

const iso = (ms: number) => new Date(ms).toISOString();

/** A domain's record without its bucket: the group's dimensions and the metrics. */
export interface DomainRecordParts<
  Dimensions extends Partial<Record<string, CsvCell>>,
  Metrics extends Record<string, CsvCell>,
> {
  dimensions: Dimensions;
  metrics: Metrics;
}

/** What a usage domain beyond traces tells the frame: how a row reads, and its CSV columns. */
export interface UsageDomainRendering<
  Plan extends { grid: BucketGrid },
  Row extends { bucket: number },
  Dimensions extends Partial<Record<string, CsvCell>>,
  Metrics extends Record<string, CsvCell>,
> {
  record(plan: Plan, row: Row): DomainRecordParts<Dimensions, Metrics>;
  /** The CSV's value columns after the time and dimension ones, each with its metric. */
  valueColumns: Readonly<Record<string, string>>;
  /** The dimension columns a plan fills (with its context's when asked), each with its field. */
  dimensionColumns(plan: Plan, includeContext: boolean): Partial<Record<string, string>>;
}

/**
 * The JSON and CSV of a domain beyond traces (deployments, LLM usage), written from the rows a
 * backend sums: a record is `{time_bucket, dimensions, ...metrics}` in that key order; the CSV
 * header is `domainCsvColumns(valueColumns)`, and a line the bucket's start and end, then each
 * column's field (empty where the record has none). Such answers hold a few rows per bucket and group, so they are built in memory.
 */
export function createDomainRenderer<
  Plan extends { grid: BucketGrid },
  Row extends { bucket: number },
  Dimensions extends Partial<Record<string, CsvCell>>,
  Metrics extends Record<string, CsvCell>,
>(domain: UsageDomainRendering<Plan, Row, Dimensions, Metrics>) {
  const columns = domainCsvColumns(domain.valueColumns);
  const toRecord = (plan: Plan, row: Row) => {
    const { dimensions, metrics } = domain.record(plan, row);
    return { time_bucket: iso(plan.grid.start(row.bucket)), dimensions, ...metrics };
  };
  return {
    json(
      plan: Plan,
      rows: readonly Row[],
    ): { stride: Stride; usage: ReturnType<typeof toRecord>[] } {
      return { stride: plan.grid.stride, usage: rows.map((row) => toRecord(plan, row)) };
    },
    csv(plan: Plan, rows: readonly Row[], includeContext = false): string {
      const fieldOf = { ...domain.valueColumns, ...domain.dimensionColumns(plan, includeContext) };
      const lines = [formatCsvRow(columns)];
      for (const row of rows) {
        const { dimensions, metrics } = domain.record(plan, row);
        const fields: Partial<Record<string, CsvCell>> = { ...dimensions, ...metrics };
        const cells = columns.map((column): CsvCell => {
          if (column === 'Time Bucket Start') return iso(plan.grid.start(row.bucket));
          if (column === 'Time Bucket End') return iso(plan.grid.end(row.bucket));
          const key = fieldOf[column];
          return key === undefined ? null : fields[key];
        });
        lines.push(formatCsvRow(cells));
      }
      return lines.join('');
    },
  };
}
