import type { Invoice, InvoiceSplit } from '@contracts/usage/billing-schema';
import {
  USAGE_METRICS,
  invoiceLines,
  invoiceTotal,
  type InvoiceLine,
  type Plan,
} from '@contracts/usage/pricing';
import type { MetricValues } from './billing-usage';

/** A UTC calendar month, `YYYY-MM`, as a span. */
export function monthSpan(month: string): { start: Date; end: Date } {
  const [year = 0, index = 1] = month.split('-').map(Number);
  return {
    start: new Date(Date.UTC(year, index - 1, 1)),
    end: new Date(Date.UTC(year, index, 1)),
  };
}

/** The month (`YYYY-MM`, UTC) of an instant. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/**
 * Splits `total` (a whole number) in proportion to `weights`, by largest remainder: the parts
 * are whole and add up to `total` exactly. Ties go to the earlier weight.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    parts[index] = (parts[index] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}

/** A group of the split: who it is, and its metrics. */
export interface SplitGroup {
  workspaceId: string;
  workspaceName: string | null;
  projectId: string | null;
  projectName: string | null;
  metrics: MetricValues;
}

/**
 * The month's usage lines shared among `groups` by quantity: each group's billable units and
 * cents are its largest-remainder share of the line's, so the groups add up to the invoice's
 * usage lines to the unit and the cent. Seats belong to the organization and are not split.
 */
export function splitLines(lines: readonly InvoiceLine[], groups: readonly SplitGroup[]) {
  const shares = new Map<string, { billable: number[]; cents: number[] }>();
  for (const line of lines) {
    if (line.metric === 'seats') continue;
    const metric = line.metric;
    const weights = groups.map((group) => group.metrics[metric]);
    shares.set(metric, {
      billable: allocate(line.billable, weights),
      cents: allocate(Math.round(line.amount * 100), weights),
    });
  }
  return groups.map((group, index): InvoiceSplit => {
    const groupLines = USAGE_METRICS.map((metric): InvoiceLine => {
      const line = lines.find((candidate) => candidate.metric === metric);
      const share = shares.get(metric);
      const quantity = group.metrics[metric];
      const billable = share?.billable[index] ?? 0;
      return {
        metric,
        quantity,
        included: quantity - billable,
        billable,
        unit_price: line?.unit_price ?? 0,
        amount: (share?.cents[index] ?? 0) / 100,
      };
    });
    return {
      workspace_id: group.workspaceId,
      workspace_name: group.workspaceName,
      project_id: group.projectId,
      project_name: group.projectName,
      lines: groupLines,
      total: invoiceTotal(groupLines),
    };
  });
}

/**
 * The month's quantities carried to its end at the month-to-date rate: `elapsed` of `length`
 * milliseconds have passed. Whole units, rounded.
 */
export function projectToMonthEnd(
  metrics: MetricValues,
  elapsedMs: number,
  lengthMs: number,
): MetricValues {
  const factor = elapsedMs > 0 ? lengthMs / elapsedMs : 1;
  const projected = { ...metrics };
  for (const metric of USAGE_METRICS) projected[metric] = Math.round(metrics[metric] * factor);
  return projected;
}

export interface InvoiceInput {
  month: string;
  now: Date;
  plan: Plan;
  totals: MetricValues;
  byWorkspace: SplitGroup[];
  byProject: SplitGroup[];
}

/**
 * A month's invoice: final once the month has ended, else a draft of it so far, with its
 * projection to the month's end.
 */
export function buildInvoice(input: InvoiceInput): Invoice {
  const { start, end } = monthSpan(input.month);
  const draft = input.now.getTime() < end.getTime();
  const lines = invoiceLines(input.totals, input.plan);
  const projectedLines = draft
    ? invoiceLines(
        projectToMonthEnd(
          input.totals,
          input.now.getTime() - start.getTime(),
          end.getTime() - start.getTime(),
        ),
        input.plan,
      )
    : null;
  return {
    month: input.month,
    status: draft ? 'draft' : 'final',
    projected: projectedLines && { lines: projectedLines, total: invoiceTotal(projectedLines) },
    lines,
    total: invoiceTotal(lines),
    by_workspace: splitLines(lines, input.byWorkspace),
    by_project: splitLines(lines, input.byProject),
    plan: input.plan,
  };
}
