import type { Pool } from 'pg';
import { llmAnswerFromRows } from '@server/usage/model/llm-answer';
import type { LlmUsageStore } from '@server/usage/store/llm-usage-store';
import {
  createModelPrice,
  loadModelPrices,
  removeModelPrice,
  replaceModelPrice,
} from './model-prices';
import { queryLlmUsage } from './query-llm-usage';
import { recordLlmRuns } from './record-llm-runs';

/**
 * LLM usage on the scale-out backend, in its Postgres: one row per LLM run (a few per trace,
 * far fewer than ClickHouse's traces), so the once-only insert is one statement and no claim
 * is needed.
 */
export function createScaleOutLlmUsage(pool: Pool): LlmUsageStore {
  return {
    record: (batch) => recordLlmRuns(pool, batch),
    answer: async (plan) => llmAnswerFromRows(await queryLlmUsage(pool, plan)),
    prices: {
      list: (workspaceId) => loadModelPrices(pool, [workspaceId]),
      create: (workspaceId, body) => createModelPrice(pool, workspaceId, body),
      replace: (workspaceId, id, body) => replaceModelPrice(pool, workspaceId, id, body),
      remove: (workspaceId, id) => removeModelPrice(pool, workspaceId, id),
    },
  };
}
