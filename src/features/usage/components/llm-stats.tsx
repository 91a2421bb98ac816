import type { ReactNode } from 'react';
import { formatCount, formatSignedCount, formatSignedPercent } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import {
  costOf,
  type CostChange,
  type LlmCardComparison,
  type LlmSums,
} from '../model/llm-comparison';
import { formatUsdOrUnknown, type LlmTotals } from '../model/llm-matrices';
import type { ComparisonPlan } from '../model/measured-comparison';
import type { TimeRange } from '../model/time-range';
import { DAY_MS } from '@contracts/usage/time';
import { MODEL_PRICE_EDITOR_ID } from './model-price-editor';

/** A card that compares its figure with the previous period's. */
interface ComparedCard {
  figure: keyof LlmCardComparison['changes'];
  label: string;
  value: (totals: LlmTotals) => string;
  /** The previous period's figure, as this card writes its own. */
  before: (previous: LlmSums) => string;
  /** A change in the figure's unit, signed. */
  signed: (delta: number) => string;
  note: (totals: LlmTotals) => string;
}

const COMPARED_CARDS: readonly ComparedCard[] = [
  {
    figure: 'cost',
    label: 'Cost',
    value: (totals) => formatUsdOrUnknown(totals.cost),
    before: (previous) => formatUsdOrUnknown(costOf(previous)),
    signed: (delta) =>
      `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${formatUsdOrUnknown(Math.abs(delta))}`,
    note: (totals) =>
      totals.unpricedRuns > 0
        ? `Priced runs only; ${formatCount(totals.unpricedRuns)} unpriced`
        : 'Declared or from the price map',
  },
  {
    figure: 'inputTokens',
    label: 'Input tokens',
    value: (totals) => formatCount(totals.inputTokens),
    before: (previous) => formatCount(previous.inputTokens),
    signed: formatSignedCount,
    note: () => 'Prompt tokens, cached ones included',
  },
  {
    figure: 'outputTokens',
    label: 'Output tokens',
    value: (totals) => formatCount(totals.outputTokens),
    before: (previous) => formatCount(previous.outputTokens),
    signed: formatSignedCount,
    note: () => 'Completion tokens, reasoning included',
  },
];

interface UnpricedModel {
  model: string;
  provider: string | null;
  runs: number;
}

/**
 * The LLM tab's cards: cost, input and output tokens, cache share, and the unpriced runs named by
 * model, each with a link to the price map editor (`onPrice` gives the editor the model).
 */
export function LlmStats({
  totals,
  unpriced,
  onPrice,
  range,
  plan,
  comparison,
  comparisonError,
}: {
  /** The view's totals (the focused group's while the chart shows one); undefined while loading. */
  totals: LlmTotals | undefined;
  unpriced: readonly UnpricedModel[];
  onPrice: (model: string) => void;
  /** The view's range: the previous period is as long. */
  range: TimeRange;
  plan: ComparisonPlan;
  /** Against the previous period; undefined while it loads. */
  comparison: LlmCardComparison | undefined;
  comparisonError: boolean;
}) {
  const lengthText = describeLength(range);
  const against = (card: ComparedCard) =>
    comparisonError
      ? 'Unavailable'
      : comparison &&
        describeAgainst(
          comparison.changes[card.figure],
          comparison.measured ? card.before(comparison.previous) : null,
          card.signed,
        );
  return (
    <>
      <div className="usage-summary" aria-label="LLM totals">
        {COMPARED_CARDS.map((card) => (
          <Stat
            key={card.figure}
            id={`llm-stat-${card.figure}`}
            label={card.label}
            value={totals && card.value(totals)}
            change={against(card)}
            lengthText={lengthText}
          >
            {totals && card.note(totals)}
          </Stat>
        ))}
        <Stat
          id="llm-stat-cache"
          label="Cache share"
          value={
            totals &&
            (totals.cacheShare === null ? '—' : `${(totals.cacheShare * 100).toFixed(1)}%`)
          }
        >
          Of input tokens, read from a prompt cache
        </Stat>
        <div className="stat">
          <span className="stat-label" id="llm-stat-unpriced">
            Unpriced runs
          </span>
          <output className="stat-value" aria-labelledby="llm-stat-unpriced" aria-busy={!totals}>
            {totals ? formatCount(totals.unpricedRuns) : '—'}
          </output>
          {unpriced.length > 0 ? (
            <ul className="llm-unpriced small">
              {unpriced.slice(0, 5).map((entry) => (
                <li key={`${entry.model}|${entry.provider ?? ''}`}>
                  {entry.model}
                  {entry.provider ? ` (${entry.provider})` : ''}: {formatCount(entry.runs)}{' '}
                  <a href={`#${MODEL_PRICE_EDITOR_ID}`} onClick={() => onPrice(entry.model)}>
                    Price {entry.model}
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <span className="muted small">
              {totals && totals.unpricedRuns === 0 ? 'Every run has a cost' : ''}
            </span>
          )}
        </div>
      </div>
      <p className="muted small">{describeBasis(plan, lengthText)}</p>
    </>
  );
}

function Stat({
  id,
  label,
  value,
  change,
  lengthText,
  children,
}: {
  id: string;
  label: string;
  value: string | undefined;
  /** Against the previous period, in words; undefined while it loads; absent on cards without. */
  change?: string | undefined;
  lengthText?: string;
  children: ReactNode;
}) {
  return (
    <div className="stat">
      <span className="stat-label" id={id}>
        {label}
      </span>
      <output className="stat-value" aria-labelledby={id} aria-busy={value === undefined}>
        {value ?? '—'}
      </output>
      {lengthText === undefined ? null : (
        // Neutral, as on Traces: more spend is not good news, nor less bad; the arrow says which.
        <output className="small" aria-label={`${label} vs. the previous ${lengthText}`}>
          {change ?? '—'}
        </output>
      )}
      <span className="muted small">{value === undefined ? '' : children}</span>
    </div>
  );
}

/**
 * A card's change and the previous period's figure ("▲ +12.5% (+$1.20); $9.60 before"), in the
 * Traces card's words. An unknown cost says so: it is never a $0 nor a percentage of one.
 */
function describeAgainst(
  change: CostChange,
  before: string | null,
  signed: (delta: number) => string,
): string {
  const words: Record<CostChange['kind'], string> = {
    unknown: 'Unknown: unpriced runs',
    unmeasured: 'Not measured',
    none: 'None in either period',
    'from-zero': 'delta' in change ? `${signed(change.delta)} (none before)` : '',
    change:
      change.kind === 'change'
        ? `${formatSignedPercent(change.ratio)} (${signed(change.delta)})`
        : '',
  };
  // The arrow says which way; the colour stays neutral, as on Traces.
  const arrow = !('delta' in change) || change.delta === 0 ? '' : change.delta > 0 ? '▲ ' : '▼ ';
  const text = `${arrow}${words[change.kind]}`;
  return before === null ? text : `${text}; ${before} before`;
}

function describeLength({ startMs, endMs }: TimeRange): string {
  const days = Math.round((endMs - startMs) / DAY_MS);
  return days <= 1 ? 'day' : `${formatCount(days)} days`;
}

/** What the changes compare, as on Traces: the measured days, cut at the same minute. */
function describeBasis(plan: ComparisonPlan, lengthText: string): string {
  if (plan.kind === 'unmeasured') {
    return `Previous period not measured: no data before ${formatUtc(plan.floorMs, 'd MMM yyyy')}`;
  }
  const toTime = plan.toMs === null ? '' : `, both to ${formatUtc(plan.toMs, 'HH:mm')} UTC`;
  const clipped = plan.clipped
    ? ` (the last ${formatCount(plan.days)} measured days of each; no data before ${formatUtc(plan.previous.startMs, 'd MMM yyyy')})`
    : '';
  return `Changes against the previous ${lengthText}${clipped}${toTime}`;
}
