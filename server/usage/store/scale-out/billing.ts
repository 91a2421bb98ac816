import type { Pool } from 'pg';
import type { BillingWrites } from '@server/usage/store/usage-store';
import { applyDeploymentReport } from './apply-deployment-report';
import { ensureProjectRows } from './ensure-projects';
import type { IngestQueue } from './clickhouse/ingest-queue';

/**
 * Billing on ClickHouse + Postgres: every write goes through the ingest queue, whose claim on the
 * shared billed-run set decides duplicates and usage limits in one Postgres transaction
 * (`limits/claims.ts`) before the traces reach ClickHouse.
 */
export function createScaleOutBilling(pool: Pool, queue: IngestQueue): BillingWrites {
  return {
    async ingestRuns(batch) {
      const ingestedAt = new Date();
      const projects = await ensureProjectRows(
        pool,
        batch.workspaceId,
        batch.runs.map((run) => run.projectName),
      );
      const { inserted, refused } = await queue.write(
        batch.runs.map((run) => {
          const project = projects.get(run.projectName);
          return {
            // Stored ids read back lower-case: compare them so.
            runId: run.runId.toLowerCase(),
            workspaceId: batch.workspaceId,
            projectId: project?.id ?? '',
            userId: batch.userId,
            apiKeyId: batch.apiKeyId,
            startMs: ingestedAt.getTime(),
            tier: project?.tier === 'longlived' ? 'long' : 'short',
            // Held to the workspace's usage limits in the claim's transaction (limits/claims.ts).
            limitedProject: run.projectName,
          };
        }),
      );
      return {
        inserted,
        duplicates: batch.runs.length - inserted - refused.length,
        refused,
        ingestedAt,
      };
    },
    applyDeploymentReport: (workspaceId, report, nowMs) =>
      applyDeploymentReport(pool, workspaceId, report, nowMs),
  };
}
