import { useState } from 'react';
import { parseAsStringLiteral, useQueryStates } from '@/lib/url-state';
import { useLlmComparison } from '../api/get-llm-comparison';
import { useLlmUsage } from '../api/get-llm-usage';
import { focusKeys, llmCardComparison } from '../model/llm-comparison';
import {
  chartMatrix,
  LLM_CHART_METRICS,
  llmTotals,
  unpricedByModel,
  type LlmChartMetric,
} from '../model/llm-matrices';
import { ChartBody } from './chart-body';
import { DomainUsageView, type DomainTabProps } from './domain-tab';
import { FocusBar } from './focus-bar';
import { LlmGroupTable } from './llm-group-table';
import { LlmStats } from './llm-stats';
import { ModelPriceEditor } from './model-price-editor';

const llmParsers = { llm_metric: parseAsStringLiteral(LLM_CHART_METRICS).withDefault('cost') };

const METRIC_LABELS: Record<LlmChartMetric, string> = { cost: 'Cost (USD)', tokens: 'Tokens' };

const COUNTING_RULE =
  'LLM runs count when ingested (UTC) and are priced then, by the workspace’s model price map; a cost the run declares wins.';

/**
 * The "LLM tokens & cost" tab: totals, the unpriced runs by model, a stacked chart of cost or
 * tokens by the view's group, the groups' table, the export and the price map editor. Same range,
 * grouping, workspaces and focus as the Traces tab; the chart's metric is `?llm_metric=`.
 */
export function LlmUsageView({ view, chart, plan, onShowProjects, onChangeKey }: DomainTabProps) {
  const [{ llm_metric: metric }, setMetric] = useQueryStates(llmParsers, { history: 'replace' });
  const usage = useLlmUsage(view);
  // The model a "Price …" link named: the editor's form starts from it.
  const [pricing, setPricing] = useState<string | null>(null);
  const current = usage.isPlaceholderData ? undefined : usage.data;
  const sides = useLlmComparison(view, plan);
  // The cards follow the chart's focus, as on Traces; the focus bar above them says so.
  const focused = current && focusKeys(current.matrices, chart.focus);
  return (
    <>
      <DomainUsageView
        view={view}
        usage={usage}
        countingRule={COUNTING_RULE}
        cards={
          <>
            {usage.data && chart.focus !== null ? (
              <FocusBar
                matrix={usage.data.matrices.total_tokens}
                groupBy={view.groupBy}
                focus={chart.focus}
                onFocus={chart.onFocus}
                onShowProjects={onShowProjects}
              />
            ) : null}
            <LlmStats
              totals={current && llmTotals(current.matrices, focused)}
              // The models are named over every group: a focus hides the list, not the count.
              unpriced={current && !focused ? unpricedByModel(current.byModel) : []}
              onPrice={setPricing}
              range={view.range}
              plan={plan}
              comparison={
                current && llmCardComparison(plan, current.matrices, sides.data, chart.focus)
              }
              comparisonError={sides.isError}
            />
          </>
        }
        loadingWhat="LLM usage"
        isEmpty={({ matrices }) =>
          matrices.total_tokens.total === 0 &&
          matrices.unpriced_runs.total === 0 &&
          matrices.priced_records.total === 0
        }
        empty={{ title: 'No LLM usage in this range.', nothing: 'No LLM run reported tokens' }}
        panel={{
          className: 'panel chart-panel',
          headingId: 'llm-chart-heading',
          title: metric === 'cost' ? 'Cost over time (USD)' : 'Tokens over time',
          aside: (
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
          ),
        }}
        onChangeKey={onChangeKey}
      >
        {({ matrices }) => (
          <>
            <ChartBody
              {...chart}
              matrix={chartMatrix(matrices, metric)}
              rankBy={matrices.total_tokens}
              pricePer1k={null}
              stale={usage.isPlaceholderData}
            />
            <LlmGroupTable matrices={matrices} />
          </>
        )}
      </DomainUsageView>
      <ModelPriceEditor key={pricing} workspaceIds={view.workspaceIds} modelName={pricing} />
    </>
  );
}
