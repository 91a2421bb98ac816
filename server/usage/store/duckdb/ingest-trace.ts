import type { DuckDBConnection } from '@duckdb/node-api';
import {
  traceInputSchema,
  type ParsedTrace,
  type TraceInput,
} from '@server/usage/ingest/trace-input';
import { TIER_IDS } from '@server/usage/model/trace-tiers';
import type { RunIngestor } from './writer-queue';
import { addToRollups } from './rollup-increments';
import { selectUnbilled, type RunIdFilter } from './run-id-filter';

export type IngestTrace = (trace: TraceInput) => Promise<{ inserted: boolean }>;

/**
 * Returns `ingestTrace`, which stores one trace and adds it to the daily rollups in one
 * transaction. Idempotent: a `run_id` already billed (by either path) changes nothing. Usage is
 * counted by the trace's `start_time`. It writes through the run ingestor's queue, so the two
 * writers never race for a rollup row or a run id.
 */
export function createTraceIngestor(ingestor: RunIngestor): IngestTrace {
  return async (input) => {
    const trace = traceInputSchema.parse(input);
    return ingestor.exclusive((connection, billed) => write(connection, billed, trace));
  };
}

async function write(
  connection: DuckDBConnection,
  billed: RunIdFilter,
  trace: ParsedTrace,
): Promise<{ inserted: boolean }> {
  const startTime = new Date(trace.start_time).toISOString();
  const userId = trace.user_id ?? null;
  const apiKeyId = trace.api_key_id ?? null;
  await connection.run('BEGIN TRANSACTION');
  try {
    const runId = trace.run_id.toLowerCase();
    const { unbilled, remember } = await selectUnbilled(connection, billed, [runId]);
    if (!unbilled.has(runId)) {
      await connection.run('ROLLBACK');
      return { inserted: false };
    }
    const inserted = await connection.runAndReadAll(
      `INSERT INTO traces (run_id, workspace_id, project_id, user_id, api_key_id, start_time,
         trace_tier)
       SELECT $1::UUID, $2::UUID, $3::UUID, $4::UUID, $5::UUID, $6::TIMESTAMP,
         coalesce($7, (SELECT trace_tier FROM projects WHERE id = $3::UUID), 'shortlived')
       RETURNING trace_tier`,
      [
        runId,
        trace.workspace_id,
        trace.project_id,
        userId,
        apiKeyId,
        startTime,
        trace.trace_tier ?? null,
      ],
    );
    // Counted on the trace's own day (not the ingestion day), by the batch writer's statements.
    const dims: [string, string | null][] = [
      ['workspace', trace.workspace_id],
      ['project', trace.project_id],
      ['user', userId],
      ['api_key', apiKeyId],
      [
        'trace_tier',
        TIER_IDS[inserted.getRowsJS()[0]?.[0] === 'longlived' ? 'longlived' : 'shortlived'],
      ],
    ];
    const increments = dims.map(([grouping, dimId]) => ({
      grouping,
      workspace_id: trace.workspace_id,
      dim_id: dimId,
      n: 1,
    }));
    await addToRollups(connection, increments, new Date(startTime), new Set());
    await connection.run('COMMIT');
    remember();
    return { inserted: true };
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
}
