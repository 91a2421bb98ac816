import { Field } from '@/components/ui/field';
import { useId } from 'react';
import type { UsageViewUpdate } from '../hooks/use-usage-view-params';
import { parsePrice } from '../model/cost-estimate';
import { TIER_FILTERS, type TierFilter, type UsageViewParams } from '../model/resolve-usage-view';

export const TIER_FILTER_LABELS: Record<TierFilter, string> = {
  all: 'All',
  longlived: 'Long-lived only',
  shortlived: 'Short-lived only',
};

/** A price typed by hand: only a valid one reaches the URL; the field keeps what is typed. */
function PriceField({
  label,
  value,
  onPrice,
}: {
  label: string;
  value: number;
  onPrice: (price: number) => void;
}) {
  const id = useId();
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        className="price-input"
        type="number"
        inputMode="decimal"
        min="0"
        step="0.01"
        defaultValue={value}
        onChange={(event) => {
          const price = parsePrice(event.target.value);
          if (price !== undefined) onPrice(price);
        }}
      />
    </Field>
  );
}

/** The Traces tab's retention filter (`?tier=`): every trace, or one tier. */
export function RetentionField({
  params,
  onChange,
}: {
  params: UsageViewParams;
  onChange: (update: UsageViewUpdate) => void;
}) {
  const id = useId();
  return (
    <Field id={id} label="Retention">
      <select
        id={id}
        value={params.tier}
        onChange={(event) => onChange({ tier: event.target.value as TierFilter, focus: null })}
      >
        {TIER_FILTERS.map((tier) => (
          <option key={tier} value={tier}>
            {TIER_FILTER_LABELS[tier]}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The price of extended (long-lived, 400-day) traces; the base price is the tab's own field. */
export function ExtendedPriceField({
  params,
  onChange,
}: {
  params: UsageViewParams;
  onChange: (update: UsageViewUpdate) => void;
}) {
  return (
    <PriceField
      label="Extended price per 1,000 traces (USD, estimate)"
      value={params.extendedPricePer1k}
      onPrice={(price) => onChange({ price_ext: price })}
    />
  );
}
