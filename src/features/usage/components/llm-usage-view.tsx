import { useState } from 'react';
import { formatCount } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import { parseAsStringLiteral, useQueryStates } from '@/lib/url-state';
import { useLlmUsage } from '../api/get-llm-usage';
import {
  chartMatrix,
  dollarsOf,
  LLM_CHART_METRICS,
  llmTotals,
  unpricedByModel,
  type LlmChartMetric,
  type LlmMatrices,
} from '../model/llm-matrices';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { ChartBody } from './chart-body';
import { DataFreshness } from './data-freshness';
import { ModelPriceEditor, MODEL_PRICE_EDITOR_ID } from './model-price-editor';
import { UsageError } from './usage-error';

const llmParsers = { llm_metric: parseAsStringLiteral(LLM_CHART_METRICS).withDefault('cost') };

const METRIC_LABELS: Record<LlmChartMetric, string> = { cost: 'Cost (USD)', tokens: 'Tokens' };

const usd = (dollars: number | null) =>
  dollars === null
    ? 'Unknown'
    : dollars.toLocaleString('en-US', {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: 2,
        maximumFractionDigits: dollars !== 0 && Math.abs(dollars) < 1 ? 4 : 2,
      });

const COUNTING_RULE =
  'LLM runs count when ingested (UTC) and are priced then, by the workspace’s model price map; a cost the run declares wins.';

interface LlmUsageViewProps {
  view: ResolvedUsageView;
  nowMs: number;
  focus: string | null;
  onFocus: (key: string | null) => void;
  onZoom: ((index: number) => void) | undefined;
  onChangeKey: () => void;
}

/**
 * The "LLM tokens & cost" tab: totals, the unpriced runs by model, a stacked chart of cost or
 * tokens by the view's group, the groups' table, the export and the price map editor. Same range,
 * grouping, workspaces and focus as the Traces tab; the chart's metric is `?llm_metric=`.
 */
export function LlmUsageView({
  view,
  nowMs,
  focus,
  onFocus,
  onZoom,
  onChangeKey,
}: LlmUsageViewProps) {
  const [{ llm_metric: metric }, setMetric] = useQueryStates(llmParsers, { history: 'replace' });
  const usage = useLlmUsage(view);
  // The model a "Price …" link named: the editor's form starts from it.
  const [pricing, setPricing] = useState<string | null>(null);
  const data = usage.data;
  const current = usage.isPlaceholderData ? undefined : data;
  const totals = current ? llmTotals(current.matrices) : undefined;
  const unpriced = current ? unpricedByModel(current.byModel) : [];
  const empty =
    data &&
    data.matrices.total_tokens.total === 0 &&
    data.matrices.unpriced_runs.total === 0 &&
    data.matrices.priced_records.total === 0;
  return (
    <>
      <DataFreshness updatedAtMs={current ? usage.dataUpdatedAt : null}>
        {COUNTING_RULE}
      </DataFreshness>
      <div className="usage-summary" aria-label="LLM totals">
        <Stat id="llm-stat-cost" label="Cost" value={totals ? usd(totals.cost) : undefined}>
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
                  <a href={`#${MODEL_PRICE_EDITOR_ID}`} onClick={() => setPricing(entry.model)}>
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
      {usage.isError ? (
        <UsageError
          error={usage.error}
          onRetry={() => void usage.refetch()}
          onChangeKey={onChangeKey}
        />
      ) : null}
      {!data && !usage.isError ? (
        <div className="chart-skeleton" role="status">
          Loading LLM usage…
        </div>
      ) : null}
      {data && empty ? (
        <div className="empty-state">
          <p>
            <strong>No LLM usage in this range.</strong>
          </p>
          <p>
            {`No LLM run reported tokens in the selected workspaces between ${formatUtc(view.range.startMs, 'MMM d, yyyy')} and ${formatUtc(view.range.endMs - 1, 'MMM d, yyyy')} (UTC).`}
          </p>
        </div>
      ) : null}
      {data && !empty ? (
        <section
          className="panel chart-panel"
          aria-labelledby="llm-chart-heading"
          aria-busy={usage.isFetching}
        >
          <div className="panel-heading">
            <h3 id="llm-chart-heading">
              {metric === 'cost' ? 'Cost over time (USD)' : 'Tokens over time'}
            </h3>
            <fieldset className="segmented">
              <legend className="visually-hidden">Chart metric</legend>
              {LLM_CHART_METRICS.map((item) => (
                <label key={item}>
                  <input
                    type="radio"
                    name="llm-metric"
                    value={item}
                    checked={metric === item}
                    onChange={() => void setMetric({ llm_metric: item })}
                  />
                  {METRIC_LABELS[item]}
                </label>
              ))}
            </fieldset>
          </div>
          <ChartBody
            matrix={chartMatrix(data.matrices, metric)}
            rankBy={data.matrices.total_tokens}
            nowMs={nowMs}
            pricePer1k={null}
            focus={focus}
            onFocus={onFocus}
            onZoom={onZoom}
            stale={usage.isPlaceholderData}
          />
          <LlmGroupTable matrices={data.matrices} />
        </section>
      ) : null}
      <ModelPriceEditor key={pricing} workspaceIds={view.workspaceIds} modelName={pricing} />
    </>
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
  children: React.ReactNode;
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

/** The groups over the whole range, most tokens first. */
function LlmGroupTable({ matrices }: { matrices: LlmMatrices }) {
  const total = (name: keyof LlmMatrices, key: string) => matrices[name].totals.get(key) ?? 0;
  const rows = [...matrices.total_tokens.series].sort(
    (a, b) =>
      total('total_tokens', b.key) - total('total_tokens', a.key) || a.label.localeCompare(b.label),
  );
  return (
    <div className="table-scroll">
      <table className="usage-table llm-table">
        <caption className="visually-hidden">LLM usage by group over the range</caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Input tokens</th>
            <th scope="col">Output tokens</th>
            <th scope="col">Cache read</th>
            <th scope="col">Total tokens</th>
            <th scope="col">Cost</th>
            <th scope="col">Unpriced runs</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((series) => (
            <tr key={series.key}>
              <th scope="row">{series.label}</th>
              <td>{formatCount(total('input_tokens', series.key))}</td>
              <td>{formatCount(total('output_tokens', series.key))}</td>
              <td>{formatCount(total('cache_read_tokens', series.key))}</td>
              <td>{formatCount(total('total_tokens', series.key))}</td>
              <td>
                {usd(
                  dollarsOf(total('cost_nanos', series.key), total('priced_records', series.key)),
                )}
              </td>
              <td>{formatCount(total('unpriced_runs', series.key))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
