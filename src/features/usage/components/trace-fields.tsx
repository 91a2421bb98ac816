import { Field } from '@/components/ui/field';
import { useId } from 'react';
import type { UsageViewUpdate } from '../hooks/use-usage-view-params';
import { TIER_FILTERS, type TierFilter, type UsageViewParams } from '../model/resolve-usage-view';

export const TIER_FILTER_LABELS: Record<TierFilter, string> = {
  all: 'All',
  longlived: 'Long-lived only',
  shortlived: 'Short-lived only',
};

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
