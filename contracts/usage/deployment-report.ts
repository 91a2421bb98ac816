import { z } from 'zod/mini';

/**
 * What a deployment replica reports to the usage service (`POST /api/v1/deployments/metrics`):
 * the runs and node executions it counted since its last acknowledged report, per project (the
 * graph) and minute, and a heartbeat (`sent_at`) from which the service credits its uptime.
 * `replica_id` is new at every process start; `seq` numbers the replica's reports from 1, and a
 * report is resent unchanged until acknowledged, so the service applies each `seq` once.
 */
export const deploymentReportSchema = z.object({
  replica_id: z.uuid(),
  /** When this replica process started: its uptime is never credited before it. */
  started_at: z.iso.datetime({ offset: true }),
  seq: z.int().check(z.positive()),
  /** The heartbeat: the replica was up until this instant. */
  sent_at: z.iso.datetime({ offset: true }),
  /** The projects (graphs) this replica serves; its uptime is credited to each. */
  projects: z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.maxLength(100)),
  counts: z
    .array(
      z.object({
        project_name: z.string().check(z.minLength(1), z.maxLength(200)),
        /** Start of the UTC minute the runs and nodes were counted in. */
        minute: z.iso.datetime({ offset: true }),
        agent_runs: z.int().check(z.nonnegative()),
        nodes_executed: z.int().check(z.nonnegative()),
      }),
    )
    .check(z.maxLength(10_000)),
});
export type DeploymentReport = z.infer<typeof deploymentReportSchema>;
