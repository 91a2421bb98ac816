import type { ModelPrice } from '@contracts/usage/model-price-map';
import type { ModelPriceBody } from '@contracts/usage/model-price-body';
import type { LlmUsage } from '@server/usage/ingest/llm-usage';
import type { LlmAnswer } from '@server/usage/model/llm-answer';
import type { LlmQueryPlan } from '@server/usage/model/llm-usage-plan';

/** LLM runs of one request, from one key into one workspace. */
export interface LlmRunBatch {
  workspaceId: string;
  userId: string | null;
  apiKeyId: string | null;
  runs: readonly LlmRunToStore[];
}

export interface LlmRunToStore {
  usage: LlmUsage;
  projectName: string;
  /** When the run counts (and is priced); ingestion leaves it out: now. The seed and tests set it. */
  ingestedAt?: Date;
}

/**
 * What the traced LLM runs spent (`kind=llm_usage`) and the prices they are costed with. Each
 * backend keeps one row per LLM run id, priced when first stored: a run sent again (a retry, a
 * replica, a later update) changes nothing, and a price change applies to runs stored after it.
 */
export interface LlmUsageStore {
  /** Stores the runs not stored before, priced now; returns how many were new. */
  record(batch: LlmRunBatch): Promise<{ inserted: number }>;
  /**
   * The answer of a plan: a record per (bucket, group) with any run, by bucket, then label (or
   * model), then id.
   */
  answer(plan: LlmQueryPlan): Promise<LlmAnswer>;
  readonly prices: ModelPriceStore;
}

/** A workspace's model price map: its own entries (the defaults are not stored). */
export interface ModelPriceStore {
  list(workspaceId: string): Promise<ModelPrice[]>;
  create(workspaceId: string, body: ModelPriceBody): Promise<ModelPrice>;
  /** Replaces every field of an entry; undefined when the workspace has no entry `id`. */
  replace(workspaceId: string, id: string, body: ModelPriceBody): Promise<ModelPrice | undefined>;
  /** Whether an entry was removed. */
  remove(workspaceId: string, id: string): Promise<boolean>;
}
