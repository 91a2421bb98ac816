import { GROUP_BY_VALUES } from '@contracts/usage/usage-values';
import { AGGREGATIONS } from './aggregation';
import { RANGE_PRESETS } from './time-range';

/** A parameter of the URL whose value the tab cannot read, so its default is shown instead. */
export interface UnreadLinkValue {
  param: 'period' | 'aggregation' | 'group_by' | 'price';
  value: string;
}

const KNOWN: Record<Exclude<UnreadLinkValue['param'], 'price'>, readonly string[]> = {
  period: RANGE_PRESETS,
  aggregation: AGGREGATIONS,
  group_by: GROUP_BY_VALUES,
};

/**
 * The raw values (as in the URL) of a shared link that this page does not know (`period=6mo`, `group_by=team`,
 * `price=abc`): the URL parsers fall back to defaults for them, which would otherwise show a
 * different screen than the link's author saw without a word.
 */
export function unreadLinkValues(
  raw: Partial<Record<UnreadLinkValue['param'], string | null>>,
): UnreadLinkValue[] {
  const unread: UnreadLinkValue[] = [];
  for (const param of ['period', 'aggregation', 'group_by'] as const) {
    const value = raw[param] ?? null;
    if (value !== null && !KNOWN[param].includes(value)) unread.push({ param, value });
  }
  // As the URL parser reads it (parseFloat, so `2.5usd` is 2.5) and the view accepts it (≥ 0).
  const price = raw.price ?? null;
  const dollars = price === null ? 0 : Number.parseFloat(price);
  if (price !== null && !(Number.isFinite(dollars) && dollars >= 0)) {
    unread.push({ param: 'price', value: price });
  }
  return unread;
}
