import type { z } from 'zod/mini';
import { domainCsvColumns, domainUsageSchemas, usageCount } from './domain-usage-schema';
import { usageDimensionsSchema } from './usage-schema';

/**
 * The wire format of `kind=langsmith_deployments` (LangSmith's Granular Usage, Deployments
 * domain): the same endpoints, parameters, buckets and dimensions as traces ("project" is the
 * deployed agent, i.e. the graph), with three metrics per record in place of `traces`.
 */

/** The three metrics of a deployments record, in the order the UI and the CSV show them. */
export const DEPLOYMENT_METRICS = ['nodes_executed', 'agent_runs', 'agent_uptime_seconds'] as const;
export type DeploymentMetric = (typeof DEPLOYMENT_METRICS)[number];

export const { record: deploymentUsageRecordSchema, response: deploymentUsageResponseSchema } =
  domainUsageSchemas(usageDimensionsSchema, {
    /** Node executions (tasks) in the bucket. */
    nodes_executed: usageCount,
    /** Runs the deployment executed in the bucket. */
    agent_runs: usageCount,
    /** Replica uptime in the bucket, summed across replicas, whole seconds. */
    agent_uptime_seconds: usageCount,
  });

export type DeploymentUsageRecord = z.infer<typeof deploymentUsageRecordSchema>;

/** Records whose three metrics are all zero are omitted; ordered by `time_bucket`, then label. */
export type DeploymentUsageResponse = z.infer<typeof deploymentUsageResponseSchema>;

/** The deployments CSV's value columns, in place of `Traces`. */
export const DEPLOYMENT_VALUE_COLUMNS = {
  'Nodes Executed': 'nodes_executed',
  'Agent Runs': 'agent_runs',
  'Agent Uptime (seconds)': 'agent_uptime_seconds',
} as const satisfies Record<string, DeploymentMetric>;

/** The deployments CSV header: the traces CSV's time and dimension columns, then the metrics. */
export const DEPLOYMENT_CSV_COLUMNS = domainCsvColumns(DEPLOYMENT_VALUE_COLUMNS);
export type DeploymentCsvColumn = (typeof DEPLOYMENT_CSV_COLUMNS)[number];
