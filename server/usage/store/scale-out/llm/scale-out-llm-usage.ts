import type { ClickHouseClient } from '@clickhouse/client';
import type { Pool } from 'pg';
import { llmAnswerFromRows } from '@server/usage/model/llm-answer';
import type { LlmUsageStore } from '@server/usage/store/llm-usage-store';
import { CLAIM_LEASE_MS } from '../billed-runs';
import type { ClickHouseReader } from '../clickhouse/reader';
import type { DimensionCatalogs } from '../dimension-catalogs';
import { createLandingQueue, landDeadClaims } from './llm-landing';
import {
  createModelPrice,
  loadModelPrices,
  removeModelPrice,
  replaceModelPrice,
} from './model-prices';
import { queryLlmModelUsage } from './query-llm-usage';
import { readLlmPeriodsAnswer } from './read-llm-periods';
import { recordLlmRuns } from './record-llm-runs';

/**
 * LLM usage on the scale-out backend. A run is stored once in Postgres (`usage.llm_runs`, whose
 * primary key takes a run id once across resends and replicas; a few runs per trace, so no claim
 * set is needed), then landed in ClickHouse (`llm-landing.ts`). The dimension groupings are read
 * from ClickHouse as traces are; the model grouping from Postgres's daily rollup.
 */
export function createScaleOutLlmUsage(
  pool: Pool,
  clickhouse: ClickHouseClient,
  reader: ClickHouseReader,
  catalogs: DimensionCatalogs,
): LlmUsageStore & { close(): Promise<void> } {
  const landing = createLandingQueue(pool, clickhouse);
  // Runs whose landing died (a replica killed, ClickHouse away) are landed every lease; a sweep
  // still going (a backlog after an upgrade) is not joined by another.
  let sweeping: Promise<unknown> | null = null;
  const sweep = () => {
    sweeping ??= landDeadClaims(pool, clickhouse)
      .catch((error: unknown) =>
        console.error('[usage] landing LLM runs in ClickHouse failed:', error),
      )
      .finally(() => {
        sweeping = null;
      });
  };
  const sweeper = setInterval(sweep, CLAIM_LEASE_MS);
  sweeper.unref();
  return {
    record: (batch) => recordLlmRuns(pool, landing, batch),
    answer: async (plan) => {
      const { groupBy } = plan;
      if (groupBy === 'model') {
        return llmAnswerFromRows(await queryLlmModelUsage(pool, { ...plan, groupBy }));
      }
      const catalog = await catalogs(groupBy);
      const from = Math.max(plan.grid.startMs, plan.floorMs ?? plan.grid.startMs);
      return readLlmPeriodsAnswer(reader, { ...plan, groupBy }, from, catalog);
    },
    prices: {
      list: (workspaceId) => loadModelPrices(pool, [workspaceId]),
      create: (workspaceId, body) => createModelPrice(pool, workspaceId, body),
      replace: (workspaceId, id, body) => replaceModelPrice(pool, workspaceId, id, body),
      remove: (workspaceId, id) => removeModelPrice(pool, workspaceId, id),
    },
    async close() {
      clearInterval(sweeper);
      await sweeping;
      await landing.close();
    },
  };
}
