import type { BucketGrid } from '@contracts/usage/bucket-grid';
import type { GroupBy } from '@contracts/usage/usage-schema';

/**
 * A validated, authorised `kind=langsmith_deployments` query: `workspaceIds` already limited to
 * readable ones, `grid` the range and its buckets (the same strides as traces).
 */
export interface DeploymentQueryPlan {
  grid: BucketGrid;
  /** No data before this instant (the cloud floor), or null. */
  floorMs: number | null;
  workspaceIds: readonly string[];
  groupBy: GroupBy;
}

/** One (bucket, dimension value) of a deployments answer, as a backend sums it. */
export interface DeploymentUsageRow {
  /** Bucket number in the plan's grid. */
  bucket: number;
  dimId: string | null;
  label: string | null;
  /** A project's workspace (group_by=project), else null. */
  workspace: { id: string; name: string } | null;
  nodesExecuted: number;
  agentRuns: number;
  /** Replica uptime summed across replicas, in milliseconds. */
  uptimeMs: number;
}
