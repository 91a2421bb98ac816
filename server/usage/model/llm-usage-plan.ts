import type { BucketGrid } from '@contracts/usage/bucket-grid';
import type { LlmGroupBy } from '@contracts/usage/llm-usage-schema';

/**
 * A validated, authorised `kind=llm_usage` query: `workspaceIds` already limited to readable
 * ones, `grid` the range and its buckets (the same strides as traces).
 */
export interface LlmQueryPlan {
  grid: BucketGrid;
  /** No data before this instant (the cloud floor), or null. */
  floorMs: number | null;
  workspaceIds: readonly string[];
  groupBy: LlmGroupBy;
}

/** One (bucket, group) of an LLM usage answer, as a backend sums it. */
export interface LlmUsageRow {
  /** Bucket number in the plan's grid. */
  bucket: number;
  /** The dimension value's id (none for group_by=model). */
  dimId: string | null;
  label: string | null;
  /** A project's workspace (group_by=project), else null. */
  workspace: { id: string; name: string } | null;
  /** The model (group_by=model only; null there for runs that named none). */
  modelName: string | null;
  modelProvider: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  totalTokens: number;
  /** Summed cost of the priced runs, in nano-dollars. */
  costNanos: number;
  pricedRuns: number;
  unpricedRuns: number;
}
