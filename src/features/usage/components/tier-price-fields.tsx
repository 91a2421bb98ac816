import { FieldError, fieldDescribedBy } from '@/components/ui/field';
import { useId, useState } from 'react';
import type { UsageViewUpdate } from '../hooks/use-usage-view-params';
import { formatPriceField, formatUsd, parsePrice } from '../model/cost-estimate';
import type { TierPrices } from '../model/tier-cost';

/**
 * One tier's price, typed by hand, inside the estimated-cost card. Only a valid price reaches
 * the URL; an invalid one stays in the field with a message, and the estimates keep the last
 * valid price rather than showing one price and computing with another.
 */
function TierPriceInput({
  short,
  full,
  value,
  errorText,
  onPrice,
}: {
  /** What the card shows beside the field ("Base"). */
  short: string;
  /** The rest of its accessible name: " price per 1,000 traces (USD, estimate)". */
  full: string;
  /** The price in the URL. */
  value: number;
  errorText: string;
  onPrice: (price: number) => void;
}) {
  const id = useId();
  const [price, setPrice] = useState({ text: formatPriceField(value), url: value });
  // Back/Forward or a link changed the price: the field shows the URL's.
  if (price.url !== value) setPrice({ text: formatPriceField(value), url: value });
  const error =
    parsePrice(price.text) === undefined
      ? `${errorText} Estimates use ${formatUsd(value)} meanwhile.`
      : undefined;
  return (
    <div className="tier-price">
      <label className="tier-price-name" htmlFor={id}>
        {short}
        <span className="visually-hidden">{full}</span>
      </label>
      {/* The unit around the field, out of its name: "$ 2.50 / 1K". */}
      <span className="tier-price-control">
        <span aria-hidden="true">$</span>
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min="0"
          step="0.01"
          value={price.text}
          aria-invalid={error !== undefined}
          aria-describedby={fieldDescribedBy(id, { error })}
          onChange={(event) => {
            const typed = parsePrice(event.target.value);
            setPrice({ text: event.target.value, url: typed ?? value });
            if (typed !== undefined) onPrice(typed);
          }}
        />
        <span aria-hidden="true">/ 1K</span>
      </span>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * The price per 1,000 traces of each retention tier (`?price=`, `?price_ext=`), in the card whose
 * estimate they drive: the controls above the chart stay on one row.
 */
export function TierPriceFields({
  prices,
  onChange,
}: {
  prices: TierPrices;
  onChange: (update: UsageViewUpdate) => void;
}) {
  return (
    <fieldset className="tier-prices">
      <legend className="visually-hidden">Prices per 1,000 traces (USD, estimate)</legend>
      <TierPriceInput
        short="Base"
        full=" price per 1,000 traces (USD, estimate)"
        value={prices.base}
        errorText="Enter a price of 0 or more."
        onPrice={(price) => onChange({ price })}
      />
      <TierPriceInput
        short="Extended"
        full=" price per 1,000 traces (USD, estimate)"
        value={prices.extended}
        errorText="Enter an extended price of 0 or more."
        onPrice={(price) => onChange({ price_ext: price })}
      />
    </fieldset>
  );
}
