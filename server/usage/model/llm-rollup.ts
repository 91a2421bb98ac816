import type { LlmGroupBy } from '@contracts/usage/llm-usage-schema';
import { LLM_GROUP_BY_VALUES } from '@contracts/usage/llm-usage-schema';
import { DAY_MS } from '@contracts/usage/time';
import type { CostSource } from './price-llm-run';

/** One stored LLM run, as the rollups count it. */
export interface RolledLlmRun {
  workspaceId: string;
  projectId: string;
  userId: string | null;
  apiKeyId: string | null;
  modelName: string | null;
  modelProvider: string | null;
  ingestedMs: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  totalTokens: number;
  costNanos: number | null;
  costSource: CostSource;
}

/** The sums a rollup row holds, in the order every backend stores them. */
export const LLM_ROLLUP_MEASURES = [
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'total_tokens',
  'cost_nanos',
  'priced_runs',
  'unpriced_runs',
  'declared_runs',
] as const;
export type LlmRollupMeasure = (typeof LLM_ROLLUP_MEASURES)[number];

/**
 * What new runs add to one daily rollup row: per (grouping, UTC day, workspace, value), where the
 * value is `dim_id` (a workspace, project, user or API key id; null for runs without a user or
 * key) or, for grouping `model`, the model name and provider (either may be null).
 */
export type LlmRollupIncrement = {
  grouping: LlmGroupBy;
  /** Days since 1970-01-01 (UTC). */
  epoch_day: number;
  workspace_id: string;
  dim_id: string | null;
  model_name: string | null;
  model_provider: string | null;
} & Record<LlmRollupMeasure, number>;

const dimensionOf = (grouping: LlmGroupBy, run: RolledLlmRun) => {
  switch (grouping) {
    case 'workspace':
      return { dim_id: run.workspaceId, model_name: null, model_provider: null };
    case 'project':
      return { dim_id: run.projectId, model_name: null, model_provider: null };
    case 'user':
      return { dim_id: run.userId, model_name: null, model_provider: null };
    case 'api_key':
      return { dim_id: run.apiKeyId, model_name: null, model_provider: null };
    case 'model':
      return { dim_id: null, model_name: run.modelName, model_provider: run.modelProvider };
  }
};

/**
 * The daily rollup increments of newly stored runs: each run counts once in every grouping, on
 * the UTC day of its ingestion instant. Sums are exact (integers); a run without a cost counts
 * as unpriced, never as 0.
 */
export function llmRollupIncrements(runs: readonly RolledLlmRun[]): LlmRollupIncrement[] {
  const rows = new Map<string, LlmRollupIncrement>();
  for (const run of runs) {
    const epochDay = Math.floor(run.ingestedMs / DAY_MS);
    for (const grouping of LLM_GROUP_BY_VALUES) {
      const dim = dimensionOf(grouping, run);
      const key = JSON.stringify([grouping, epochDay, run.workspaceId, ...Object.values(dim)]);
      const row = rows.get(key) ?? {
        grouping,
        epoch_day: epochDay,
        workspace_id: run.workspaceId,
        ...dim,
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_creation_tokens: 0,
        total_tokens: 0,
        cost_nanos: 0,
        priced_runs: 0,
        unpriced_runs: 0,
        declared_runs: 0,
      };
      row.input_tokens += run.inputTokens;
      row.output_tokens += run.outputTokens;
      row.cache_read_tokens += run.cacheReadTokens;
      row.cache_creation_tokens += run.cacheCreationTokens;
      row.total_tokens += run.totalTokens;
      if (run.costNanos === null) row.unpriced_runs += 1;
      else {
        row.cost_nanos += run.costNanos;
        row.priced_runs += 1;
      }
      if (run.costSource === 'declared') row.declared_runs += 1;
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}
