import type { ReactNode } from 'react';

/**
 * An invoice table scrolls sideways inside its own box on a narrow screen instead of widening
 * the page, as the Granular Usage tables do; the box is a region named by the table's caption.
 */
export function InvoiceTableScroll({
  caption,
  children,
}: {
  caption: string;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll invoice-table-scroll" role="region" aria-label={caption}>
      {children}
    </div>
  );
}
