import { InvoicesView } from '@/features/usage/components/invoices/invoices-view';

export function InvoicesRoute() {
  return <InvoicesView />;
}
