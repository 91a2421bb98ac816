import type { Pool } from 'pg';
import { traceInputSchema } from '@server/usage/ingest/trace-input';
import type { StoreFixtures } from '@server/usage/store/usage-store';
import { projectTier } from './ensure-projects';
import type { IngestQueue } from './clickhouse/ingest-queue';

/**
 * Stores one trace counted at its own `start_time` through the ingest queue (so the billed-run
 * set still decides duplicates); idempotent by `run_id`.
 */
export function createTraceIngestor(pool: Pool, queue: IngestQueue): StoreFixtures['ingestTrace'] {
  return async (input) => {
    const trace = traceInputSchema.parse(input);
    const projectId = trace.project_id.toLowerCase();
    // The trace's own tier, else its project's default (short-lived when unset), as DuckDB.
    const tier = trace.trace_tier ?? (await projectTier(pool, projectId));
    const { inserted } = await queue.write([
      {
        runId: trace.run_id.toLowerCase(),
        workspaceId: trace.workspace_id.toLowerCase(),
        projectId,
        userId: trace.user_id?.toLowerCase() ?? null,
        apiKeyId: trace.api_key_id?.toLowerCase() ?? null,
        startMs: new Date(trace.start_time).getTime(),
        tier: tier === 'longlived' ? 'long' : 'short',
      },
    ]);
    return { inserted: inserted > 0 };
  };
}
