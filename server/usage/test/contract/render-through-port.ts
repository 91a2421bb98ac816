import { csvExportResponse } from '@server/usage/http/csv-export';
import { createUsageRenderer } from '@server/usage/http/render-usage';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { UsageStore } from '@server/usage/store/usage-store';
import { getUsage } from '@server/usage/queries/get-usage';

const decoder = new TextDecoder();

/** What the routes send for a plan, through a backend: the JSON body and the CSV data lines. */
export function renderThroughPort(backend: UsageStore) {
  // As the routes do: one renderer (and the backend's catalog cache) for every request.
  const renderer = createUsageRenderer();
  return {
    async json(plan: UsageQueryPlan): Promise<string> {
      const answer = await getUsage(backend.facts, plan);
      return decoder.decode(renderer.json(answer.plan, answer.matrix));
    },
    /**
     * The export's data lines (header dropped), with windows of at most `windowCells`, and the
     * context columns filled with `includeContext` (`include_context=true`).
     */
    async csv(
      plan: UsageQueryPlan,
      windowCells?: number,
      { includeContext = false } = {},
    ): Promise<string> {
      const response = await csvExportResponse(backend, plan, renderer, {
        windowCells,
        includeContext,
      });
      const text = await response.text();
      return text.slice(text.indexOf('\r\n') + 2);
    },
  };
}
