import { parseAsString, useQueryStates } from '@/lib/url-state';
import { formatUsd, DEFAULT_PRICE_PER_1K } from '../model/cost-estimate';
import { RANGE_PRESET_LABELS } from '../model/time-range';
import { unreadLinkValues, type UnreadLinkValue } from '../model/unread-link-values';
import { GROUP_BY_LABELS } from './usage-controls';

/** What the tab shows in place of each value it could not read (the parsers' defaults). */
const SHOWN_INSTEAD: Record<UnreadLinkValue['param'], string> = {
  period: RANGE_PRESET_LABELS['30d'],
  aggregation: "the range's default aggregation",
  group_by: `by ${GROUP_BY_LABELS.workspace.toLowerCase()}`,
  price: `${formatUsd(DEFAULT_PRICE_PER_1K)} per 1,000 traces`,
};

const RAW_VALUES = {
  period: parseAsString,
  aggregation: parseAsString,
  group_by: parseAsString,
  price: parseAsString,
};

/**
 * A shared or hand-edited link with a value this page does not know (`period=6mo`) is shown
 * with that control's default; this says so, rather than showing another screen without a word.
 */
export function UnreadLinkNotice() {
  // The raw strings, through the URL state like the tab's own parsers, so a control's change
  // updates it.
  const [raw] = useQueryStates(RAW_VALUES, { history: 'replace' });
  const unread = unreadLinkValues(raw);
  if (unread.length === 0) return null;
  return (
    <p className="notice" role="status">
      This link has {unread.length === 1 ? 'a value' : 'values'} this page does not know, so{' '}
      {unread.length === 1 ? 'its default is' : 'their defaults are'} shown:{' '}
      {unread.map(({ param, value }, index) => (
        <span key={param}>
          {index > 0 ? '; ' : ''}
          <code>
            {param}={value}
          </code>{' '}
          → {SHOWN_INSTEAD[param]}
        </span>
      ))}
      .
    </p>
  );
}
