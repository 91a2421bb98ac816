import type { ReactNode } from 'react';
import { formatCount, formatSignedCount } from '@/lib/format';
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
import { changeArrow, describeChange } from './period-change-stat';

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
  const compare = (
    pick: (changes: LlmCardComparison['changes']) => CostChange,
    before: (previous: LlmSums) => string,
    signed: (delta: number) => string,
  ) =>
    comparisonError
      ? 'Unavailable'
      : comparison &&
        describeAgainst(
          pick(comparison.changes),
          comparison.measured ? before(comparison.previous) : null,
          signed,
        );
  const lengthText = describeLength(range);
  return (
    <>
      <div className="usage-summary" aria-label="LLM totals">
        <Stat
          id="llm-stat-cost"
          label="Cost"
          value={totals && formatUsdOrUnknown(totals.cost)}
          change={compare(
            (changes) => changes.cost,
            (previous) => formatUsdOrUnknown(costOf(previous)),
            formatSignedUsd,
          )}
          lengthText={lengthText}
        >
          {totals && totals.unpricedRuns > 0
            ? `Priced runs only; ${formatCount(totals.unpricedRuns)} unpriced`
            : 'Declared or from the price map'}
        </Stat>
        <Stat
          id="llm-stat-input"
          label="Input tokens"
          value={totals && formatCount(totals.inputTokens)}
          change={compare(
            (changes) => changes.inputTokens,
            (previous) => formatCount(previous.inputTokens),
            formatSignedCount,
          )}
          lengthText={lengthText}
        >
          Prompt tokens, cached ones included
        </Stat>
        <Stat
          id="llm-stat-output"
          label="Output tokens"
          value={totals && formatCount(totals.outputTokens)}
          change={compare(
            (changes) => changes.outputTokens,
            (previous) => formatCount(previous.outputTokens),
            formatSignedCount,
          )}
          lengthText={lengthText}
        >
          Completion tokens, reasoning included
        </Stat>
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

/** "$1.20" with its sign: "+$1.20", "−$0.0450". */
const formatSignedUsd = (delta: number) =>
  `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${formatUsdOrUnknown(Math.abs(delta))}`;

/**
 * A card's change and the previous period's figure ("▲ +12.5% (+$1.20); $9.60 before"). An
 * unknown cost says so: it is never a $0 nor a percentage of one.
 */
function describeAgainst(
  change: CostChange,
  before: string | null,
  signed: (delta: number) => string,
): string {
  const text: string =
    change.kind === 'unknown'
      ? 'Unknown: unpriced runs'
      : `${changeArrow(change)}${describeChange(change, signed, 'None in either period')}`;
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
