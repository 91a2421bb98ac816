import { useSearchParams } from 'react-router';
import { recentMonths, resolveInvoiceMonth } from '../model/invoice-month';

/** How many months the Invoices view offers, the current one first. */
const MONTHS_OFFERED = 12;

/** The Invoices view's month, in the URL (`?month=YYYY-MM`; absent: the current month). */
export function useInvoiceMonth() {
  const [search, setSearch] = useSearchParams();
  const now = new Date();
  const current = resolveInvoiceMonth(null, now);
  const month = resolveInvoiceMonth(search.get('month'), now);
  const setMonth = (next: string) =>
    setSearch((previous) => {
      const params = new URLSearchParams(previous);
      if (next === current) params.delete('month');
      else params.set('month', next);
      return params;
    });
  return { month, current, months: recentMonths(now, MONTHS_OFFERED), setMonth };
}
