import type { DuckDBConnection } from '@duckdb/node-api';
import { llmAnswerFromRows } from '@server/usage/model/llm-answer';
import type { LlmUsageStore } from '@server/usage/store/llm-usage-store';
import type { DuckDbStore } from '../connection';
import type { DimensionCatalogs } from '../dimension-catalogs';
import {
  createModelPrice,
  loadModelPrices,
  removeModelPrice,
  replaceModelPrice,
} from './model-prices';
import type { KnownLlmRollupRows } from './add-llm-rollups';
import { ensureLlmTables } from './llm-tables';
import { queryLlmModelUsage } from './query-llm-usage';
import { readLlmDimensionAnswer } from './read-llm-matrix';
import { recordLlmRuns } from './record-llm-runs';

type Write = <T>(work: (connection: DuckDBConnection) => Promise<T>) => Promise<T>;

/**
 * LLM usage on one DuckDB file: writes (runs, price changes) go through the one writer, so a
 * price change is ordered with the batches: runs stored after it take it.
 */
export function createDuckDbLlmUsage(
  store: DuckDbStore,
  writer: Write,
  catalogs: DimensionCatalogs,
): LlmUsageStore {
  // Created on first use (any store, also one a test opens without the service's start-up).
  let tables: Promise<void> | undefined;
  // Rollup rows committed so far (never deleted): later batches skip creating them.
  const known: KnownLlmRollupRows = new Set();
  const ready = () =>
    (tables ??= writer(ensureLlmTables).catch((error: unknown) => {
      tables = undefined;
      throw error;
    }));
  const write: Write = async (work) => {
    await ready();
    return writer(work);
  };
  const read: Write = async (work) => {
    await ready();
    return store.withConnection(work);
  };
  return {
    record: (batch) => write((connection) => recordLlmRuns(connection, batch, known)),
    answer: (plan) =>
      read(async (connection) => {
        const { groupBy } = plan;
        if (groupBy === 'model') {
          return llmAnswerFromRows(await queryLlmModelUsage(connection, { ...plan, groupBy }));
        }
        // The dimension table and the facts are read in one snapshot: positions index it.
        await connection.run('BEGIN TRANSACTION');
        try {
          const catalog = await catalogs(connection, groupBy);
          const from = Math.max(plan.grid.startMs, plan.floorMs ?? plan.grid.startMs);
          return await readLlmDimensionAnswer(connection, { ...plan, groupBy }, from, catalog);
        } finally {
          await connection.run('ROLLBACK');
        }
      }),
    prices: {
      list: (workspaceId) => read((connection) => loadModelPrices(connection, [workspaceId])),
      create: (workspaceId, body) =>
        write((connection) => createModelPrice(connection, workspaceId, body)),
      replace: (workspaceId, id, body) =>
        write((connection) => replaceModelPrice(connection, workspaceId, id, body)),
      remove: (workspaceId, id) =>
        write((connection) => removeModelPrice(connection, workspaceId, id)),
    },
  };
}
