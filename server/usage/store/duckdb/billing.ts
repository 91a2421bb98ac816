import type { BillingWrites } from '@server/usage/store/usage-store';
import { applyDeploymentReport } from './apply-deployment-report';
import type { RunIngestor } from './writer-queue';

/**
 * Billing on one DuckDB file: every write goes through the run ingestor's queue, the one writer,
 * which decides duplicates and usage limits before its insert.
 */
export function createDuckDbBilling(ingestor: RunIngestor): BillingWrites {
  return {
    ingestRuns: ingestor.ingest,
    applyDeploymentReport: (workspaceId, report, nowMs) =>
      ingestor.exclusive((connection) =>
        applyDeploymentReport(connection, workspaceId, report, nowMs),
      ),
  };
}
