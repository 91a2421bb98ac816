import type { ReactNode } from 'react';
import { formatCount } from '@/lib/format';
import { formatUsdOrUnknown, type LlmTotals } from '../model/llm-matrices';
import { MODEL_PRICE_EDITOR_ID } from './model-price-editor';

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
}: {
  /** The view's totals; undefined while they load. */
  totals: LlmTotals | undefined;
  unpriced: readonly UnpricedModel[];
  onPrice: (model: string) => void;
}) {
  return (
    <div className="usage-summary" aria-label="LLM totals">
      <Stat id="llm-stat-cost" label="Cost" value={totals && formatUsdOrUnknown(totals.cost)}>
        {totals && totals.unpricedRuns > 0
          ? `Priced runs only; ${formatCount(totals.unpricedRuns)} unpriced`
          : 'Declared or from the price map'}
      </Stat>
      <Stat
        id="llm-stat-input"
        label="Input tokens"
        value={totals && formatCount(totals.inputTokens)}
      >
        Prompt tokens, cached ones included
      </Stat>
      <Stat
        id="llm-stat-output"
        label="Output tokens"
        value={totals && formatCount(totals.outputTokens)}
      >
        Completion tokens, reasoning included
      </Stat>
      <Stat
        id="llm-stat-cache"
        label="Cache share"
        value={
          totals && (totals.cacheShare === null ? '—' : `${(totals.cacheShare * 100).toFixed(1)}%`)
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
          <span className="muted small">{totals ? 'Every run has a cost' : ''}</span>
        )}
      </div>
    </div>
  );
}

function Stat({
  id,
  label,
  value,
  children,
}: {
  id: string;
  label: string;
  value: string | undefined;
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
      <span className="muted small">{value === undefined ? '' : children}</span>
    </div>
  );
}
