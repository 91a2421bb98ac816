import type { InvoiceLine } from '@contracts/usage/pricing';
import { formatUsd } from '@/features/usage/model/cost-estimate';
import {
  INVOICE_METRIC_LABELS,
  REFERENCE_METRICS,
  formatUnitPrice,
} from '@/features/usage/model/invoice-month';
import { InvoiceTableScroll } from './invoice-table-scroll';

const count = new Intl.NumberFormat('en-US');

/** An invoice's lines and total, as LangSmith's invoice lays them out. */
export function InvoiceLinesTable({
  caption,
  lines,
  total,
}: {
  caption: string;
  lines: readonly InvoiceLine[];
  total: number;
}) {
  return (
    <InvoiceTableScroll caption={caption}>
      <table className="data-table invoice-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col" className="num">
              Quantity
            </th>
            <th scope="col" className="num">
              Included
            </th>
            <th scope="col" className="num">
              Billable
            </th>
            <th scope="col" className="num">
              Unit price
            </th>
            <th scope="col" className="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) =>
            REFERENCE_METRICS.has(line.metric) ? (
              // Shown for its count only: its traces are priced by the base and upgrade lines.
              <tr key={line.metric} data-metric={line.metric} className="reference-line">
                <th scope="row">{INVOICE_METRIC_LABELS[line.metric]}</th>
                <td className="num">{count.format(line.quantity)}</td>
                <td className="num muted">—</td>
                <td className="num muted">—</td>
                <td className="num muted">—</td>
                <td className="num muted" data-amount={line.amount.toFixed(2)}>
                  Not billed separately
                </td>
              </tr>
            ) : (
              <tr key={line.metric} data-metric={line.metric}>
                <th scope="row">{INVOICE_METRIC_LABELS[line.metric]}</th>
                <td className="num">{count.format(line.quantity)}</td>
                <td className="num">{count.format(line.included)}</td>
                <td className="num">{count.format(line.billable)}</td>
                <td className="num">{formatUnitPrice(line.unit_price)}</td>
                <td className="num" data-amount={line.amount.toFixed(2)}>
                  {formatUsd(line.amount)}
                </td>
              </tr>
            ),
          )}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={5}>
              Total
            </th>
            <td className="num" data-total={total.toFixed(2)}>
              {formatUsd(total)}
            </td>
          </tr>
        </tfoot>
      </table>
    </InvoiceTableScroll>
  );
}
