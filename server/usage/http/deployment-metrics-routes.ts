import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deploymentReportSchema } from '@contracts/usage/deployment-report';
import type { ValidationIssue } from '@contracts/usage/usage-schema';
import { jsonError } from '@server/http/json-error';
import type { UsageStore } from '../store/usage-store';
import { authorizeWriter } from './authorize-writer';
import { validationProblems } from '@server/http/validation-issues';

/** A report holds at most 10,000 count rows of ~150 bytes. */
const MAX_REPORT_BYTES = 4 * 1024 * 1024;

/**
 * `POST /deployments/metrics` (relative to `/api/v1`): where deployment replicas meter their
 * runs, node executions and uptime (the Deployments domain; LangSmith self-hosted's
 * REMOTE_METRICS_ROLLUP_ENABLED). Authorised as trace ingestion is (`runs:create`, workspace by
 * `X-Tenant-Id` or the key's own), so a deployment's metrics land where its traces are billed.
 * 202 `{applied, agent_runs, nodes_executed, uptime_ms}`; a resent report is 202 with
 * `applied: false` and adds nothing; a malformed one is 422 naming the field.
 */
export function createDeploymentMetricsRoutes(backend: UsageStore): Hono {
  const app = new Hono();
  app.post(
    '/deployments/metrics',
    bodyLimit({
      maxSize: MAX_REPORT_BYTES,
      onError: (c) => jsonError(c, 413, `Request body larger than ${MAX_REPORT_BYTES} bytes.`),
    }),
    async (c) => {
      const auth = await authorizeWriter(c, backend);
      if ('response' in auth) return auth.response;
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        return jsonError(c, 422, [
          { loc: ['body'], msg: 'Invalid JSON', type: 'json_invalid' },
        ] satisfies ValidationIssue[]);
      }
      const parsed = deploymentReportSchema.safeParse(body);
      if (!parsed.success) {
        const issues: ValidationIssue[] = validationProblems(['body'], parsed.error, (issue) => ({
          msg: issue.message,
          type: 'value_error',
        }));
        return jsonError(c, 422, issues);
      }
      const result = await backend.billing.applyDeploymentReport(
        auth.target.workspaceId,
        parsed.data,
        Date.now(),
      );
      return c.json(
        {
          applied: result.applied,
          agent_runs: result.agentRuns,
          nodes_executed: result.nodesExecuted,
          uptime_ms: result.uptimeMs,
        },
        202,
      );
    },
  );
  return app;
}
