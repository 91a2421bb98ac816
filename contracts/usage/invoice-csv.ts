import type { Invoice } from './billing-schema';
import { formatCsvRow } from './csv';
import type { InvoiceLine } from './pricing';

/** The invoice CSV's columns, in order (one definition, shared with the docs). */
export const INVOICE_CSV_HEADER = [
  'Month',
  'Status',
  'Section',
  'Workspace ID',
  'Workspace Name',
  'Project ID',
  'Project Name',
  'Metric',
  'Quantity',
  'Included',
  'Billable',
  'Unit Price USD',
  'Amount USD',
] as const;

/**
 * The invoice as CSV: its lines, a total row, then its split by workspace and by project, the
 * same numbers the JSON answer holds (cells neutralised against spreadsheet formulas). Shared
 * by the server's CSV answer and the SPA's Export CSV, so the file always matches the screen.
 */
export function invoiceCsv(invoice: Invoice): string {
  const rows: string[] = [formatCsvRow(INVOICE_CSV_HEADER)];
  const line = (
    section: string,
    who: [string | null, string | null, string | null, string | null],
    each: InvoiceLine,
  ) =>
    formatCsvRow([
      invoice.month,
      invoice.status,
      section,
      ...who,
      each.metric,
      each.quantity,
      each.included,
      each.billable,
      each.unit_price,
      each.amount.toFixed(2),
    ]);
  for (const each of invoice.lines) rows.push(line('invoice', [null, null, null, null], each));
  rows.push(
    formatCsvRow([
      invoice.month,
      invoice.status,
      'total',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      invoice.total.toFixed(2),
    ]),
  );
  for (const [section, splits] of [
    ['workspace', invoice.by_workspace],
    ['project', invoice.by_project],
  ] as const) {
    for (const split of splits) {
      const who = [
        split.workspace_id,
        split.workspace_name,
        split.project_id,
        split.project_name,
      ] as const;
      for (const each of split.lines) {
        if (each.quantity !== 0) rows.push(line(section, [...who], each));
      }
    }
  }
  return rows.join('');
}
