import { z } from 'zod/mini';
import {
  CSV_BUCKET_AND_DIMENSION_COLUMNS,
  strideSchema,
  usageDimensionsSchema,
  type UsageCsvColumn,
} from './usage-schema';

/**
 * The wire format of `kind=langsmith_deployments` (LangSmith's Granular Usage, Deployments
 * domain): the same endpoints, parameters, buckets and dimensions as traces ("project" is the
 * deployed agent, i.e. the graph), with three metrics per record in place of `traces`.
 */

/** The three metrics of a deployments record, in the order the UI and the CSV show them. */
export const DEPLOYMENT_METRICS = ['nodes_executed', 'agent_runs', 'agent_uptime_seconds'] as const;
export type DeploymentMetric = (typeof DEPLOYMENT_METRICS)[number];

const count = z.int().check(z.nonnegative());

export const deploymentUsageRecordSchema = z.object({
  /** Bucket start, ISO 8601 UTC. */
  time_bucket: z.iso.datetime({ offset: true }),
  dimensions: usageDimensionsSchema,
  /** Node executions (tasks) in the bucket. */
  nodes_executed: count,
  /** Runs the deployment executed in the bucket. */
  agent_runs: count,
  /** Replica uptime in the bucket, summed across replicas, whole seconds. */
  agent_uptime_seconds: count,
});
export type DeploymentUsageRecord = z.infer<typeof deploymentUsageRecordSchema>;

/** Records whose three metrics are all zero are omitted; ordered by `time_bucket`, then label. */
export const deploymentUsageResponseSchema = z.object({
  stride: strideSchema,
  usage: z.array(deploymentUsageRecordSchema),
});
export type DeploymentUsageResponse = z.infer<typeof deploymentUsageResponseSchema>;

/** The deployments CSV's value columns, in place of `Traces`. */
export const DEPLOYMENT_VALUE_COLUMNS = {
  'Nodes Executed': 'nodes_executed',
  'Agent Runs': 'agent_runs',
  'Agent Uptime (seconds)': 'agent_uptime_seconds',
} as const satisfies Record<string, DeploymentMetric>;

/** The deployments CSV header: the traces CSV's time and dimension columns, then the metrics. */
export const DEPLOYMENT_CSV_COLUMNS = [
  ...CSV_BUCKET_AND_DIMENSION_COLUMNS,
  'Nodes Executed',
  'Agent Runs',
  'Agent Uptime (seconds)',
] as const satisfies readonly (UsageCsvColumn | keyof typeof DEPLOYMENT_VALUE_COLUMNS)[];
export type DeploymentCsvColumn = (typeof DEPLOYMENT_CSV_COLUMNS)[number];
