import type { Invoice } from '@contracts/usage/billing-schema';
import { invoiceCsv } from '@contracts/usage/invoice-csv';
import { saveBlob } from '@/features/usage/api/export-usage-csv';
import { UTF8_BOM } from '@/features/usage/model/usage-csv';

/**
 * The invoice on screen as CSV, built from the same answer with the server's own CSV writer, so
 * the file always matches the screen. The BOM lets Excel read names beyond ASCII.
 */
export function ExportInvoiceButton({ invoice }: { invoice: Invoice }) {
  return (
    <button
      type="button"
      className="button button-secondary"
      onClick={() =>
        saveBlob(
          new Blob([UTF8_BOM, invoiceCsv(invoice)], { type: 'text/csv;charset=utf-8' }),
          `invoice-${invoice.month}.csv`,
        )
      }
    >
      Export CSV
    </button>
  );
}
