import { formatCount } from '@/lib/format';
import type { ReactNode } from 'react';
import { estimateCost, formatUsd } from '../model/cost-estimate';

/** Traces turned into dollars at the user's price: "Estimated" is the card's one hedge. */
export function CostStat({
  traces,
  pricePer1k,
  scopeLabel = null,
  children,
}: {
  traces: number | undefined;
  pricePer1k: number;
  /** The focused group's name: the estimate is of its traces only. */
  scopeLabel?: string | null;
  /** The prices the estimate uses, editable where the estimate is read. */
  children?: ReactNode;
}) {
  return (
    <div className="stat">
      <span className="stat-label" id="estimated-cost-label">
        {scopeLabel ? `Estimated cost, ${scopeLabel} only` : 'Estimated cost'}
      </span>
      <output className="stat-value small-value" aria-labelledby="estimated-cost-label">
        {traces === undefined ? '—' : formatUsd(estimateCost(traces, pricePer1k))}
      </output>
      {children}
      <span className="muted small">
        {`At ${formatUsd(pricePer1k)} per 1,000 traces${traces === undefined ? '' : ` × ${formatCount(traces)}`}`}
      </span>
    </div>
  );
}
