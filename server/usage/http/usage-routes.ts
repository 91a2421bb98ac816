import { Hono } from 'hono';
import { answerUnhandledError } from '@server/http/dependency-outage';
import { getUsage } from '../queries/get-usage';
import type { UsageStore } from '../store/usage-store';
import { authenticate } from './authenticate';
import { csvExportResponse } from './csv-export';
import { deploymentCsvResponse } from './deployment-csv-export';
import { deploymentUsageJson } from './render-deployment-usage';
import { llmAnswerRows } from '../model/llm-answer';
import { createLlmJsonWriter, llmUsageCsv } from './render-llm-usage';
import { createUsageRenderer } from './render-usage';
import { usageExportFilename } from '@contracts/usage/export-filename';
import { prepareUsageRequest, type UsageAvailability } from './prepare-usage-request';

/**
 * The usage API, relative to `/api/v1`. Each handler reads: validate and authorise
 * (`prepareUsageRequest`) -> query -> respond.
 */
export function createUsageRoutes(
  backend: UsageStore,
  availability: UsageAvailability,
  /** Each JSON usage query's latency by kind and grouping (`/metrics`). */
  onQueried?: (kind: string, groupBy: string, seconds: number) => void,
): Hono {
  const app = new Hono();
  const renderer = createUsageRenderer();
  const llmJson = createLlmJsonWriter();

  app.get('/workspaces', async (c) => {
    const auth = await authenticate(c, backend);
    if ('response' in auth) return auth.response;
    return c.json(auth.principal.workspaces);
  });

  app.get('/orgs/current/billing/granular-usage', async (c) => {
    const request = await prepareUsageRequest(c, backend, availability);
    if ('response' in request) return request.response;
    const { prepared } = request;
    const started = performance.now();
    const queried = () =>
      onQueried?.(prepared.kind, prepared.plan.groupBy, (performance.now() - started) / 1000);
    if (prepared.kind === 'langsmith_deployments') {
      const rows = await backend.facts.deploymentRows(prepared.plan);
      queried();
      return c.json(deploymentUsageJson(prepared.plan, rows));
    }
    if (prepared.kind === 'llm_usage') {
      const answer = await backend.llm.answer(prepared.plan);
      queried();
      return c.body(llmJson(prepared.plan, answer), 200, {
        'Content-Type': 'application/json',
      });
    }
    const answer = await getUsage(backend.facts, prepared.plan);
    queried();
    // The `UsageResponse` JSON as UTF-8: the bytes `c.json` would send, written from the matrix.
    return c.body(renderer.json(answer.plan, answer.matrix), 200, {
      'Content-Type': 'application/json',
    });
  });

  app.get('/orgs/current/billing/granular-usage/export', async (c) => {
    const request = await prepareUsageRequest(c, backend, availability);
    if ('response' in request) return request.response;
    const { prepared } = request;
    if (prepared.kind === 'langsmith_deployments') {
      return deploymentCsvResponse(backend, prepared.plan, prepared.includeContext);
    }
    if (prepared.kind === 'llm_usage') {
      const { plan } = prepared;
      const rows = llmAnswerRows(await backend.llm.answer(plan));
      const filename = usageExportFilename(
        plan.grid.startMs,
        plan.grid.endMs,
        plan.groupBy,
        'llm_usage',
      );
      // A few rows per bucket and group: one body, as the deployments export.
      return c.body(llmUsageCsv(plan, rows, prepared.includeContext), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Cache-Control': 'no-store',
      });
    }
    return csvExportResponse(backend, prepared.plan, renderer, {
      includeContext: prepared.includeContext,
    });
  });

  app.onError((error, c) => answerUnhandledError(c, error, 'usage'));
  return app;
}
