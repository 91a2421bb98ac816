import type { DuckDBConnection } from '@duckdb/node-api';
import { z } from 'zod';
import { CUMULATIVE_MATCH, PERIOD_DAYS } from './cumulative-rollup';
import type { RunIngestor } from './ingest-runs';
import { selectUnbilled, type RunIdFilter } from './run-id-filter';

/** A billable trace as a LangSmith SDK run reports it; `user_id`/`api_key_id` may be unknown. */
export const traceInputSchema = z.object({
  run_id: z.uuid(),
  workspace_id: z.uuid(),
  project_id: z.uuid(),
  user_id: z.uuid().nullish(),
  api_key_id: z.uuid().nullish(),
  start_time: z.union([z.date(), z.iso.datetime({ offset: true })]),
});
export type TraceInput = z.input<typeof traceInputSchema>;

export type IngestTrace = (trace: TraceInput) => Promise<{ inserted: boolean }>;

const DAY_MATCH = `grouping = $1 AND day = $2::DATE AND workspace_id = $3::UUID
  AND dim_id IS NOT DISTINCT FROM $4::UUID`;

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
  trace: z.output<typeof traceInputSchema>,
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
    await connection.run(
      `INSERT INTO traces VALUES ($1::UUID, $2::UUID, $3::UUID, $4::UUID, $5::UUID, $6::TIMESTAMP)`,
      [runId, trace.workspace_id, trace.project_id, userId, apiKeyId, startTime],
    );
    const day = startTime.slice(0, 10);
    const epochDay = Math.floor(Date.parse(day) / 86_400_000);
    const period = Math.floor(epochDay / PERIOD_DAYS);
    // cum[k + 1] counts the period's first k days, so this trace adds 1 from k = offset + 1 on.
    const firstIndex = epochDay - period * PERIOD_DAYS + 2;
    const groupings: [string, string | null][] = [
      ['workspace', trace.workspace_id],
      ['project', trace.project_id],
      ['user', userId],
      ['api_key', apiKeyId],
    ];
    for (const [grouping, dimId] of groupings) {
      const values = [grouping, day, trace.workspace_id, dimId];
      await connection.run(
        `INSERT INTO usage_daily SELECT $1, $2::DATE, $3::UUID, $4::UUID, 0
         WHERE NOT EXISTS (SELECT 1 FROM usage_daily WHERE ${DAY_MATCH})`,
        values,
      );
      await connection.run(`UPDATE usage_daily SET traces = traces + 1 WHERE ${DAY_MATCH}`, values);
      const cumValues = [grouping, period, trace.workspace_id, dimId];
      await connection.run(
        `INSERT INTO usage_cumulative
         SELECT $1, $2, $3::UUID, $4::UUID, list_transform(range(${PERIOD_DAYS + 1}), k -> 0::BIGINT)
         WHERE NOT EXISTS (SELECT 1 FROM usage_cumulative WHERE ${CUMULATIVE_MATCH})`,
        cumValues,
      );
      await connection.run(
        `UPDATE usage_cumulative
         SET cum = list_transform(cum, (n, i) -> n + CASE WHEN i >= $5 THEN 1 ELSE 0 END)
         WHERE ${CUMULATIVE_MATCH}`,
        [...cumValues, firstIndex],
      );
    }
    await connection.run('COMMIT');
    remember();
    return { inserted: true };
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
}
