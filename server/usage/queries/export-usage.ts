import { bucketsOverData } from '@server/usage/model/data-extent';
import { exportWindowGrids, type ExportWindow } from '@server/usage/model/export-windows';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { FactReads } from '@server/usage/store/usage-store';

export interface ExportOptions {
  /** At most this many cells (values x buckets) per window. */
  windowCells?: number;
  /** Aborted when the client goes away: a read under way is interrupted, no window follows. */
  signal?: AbortSignal;
}

/**
 * An export's matrices, one window of whole buckets at a time (`exportWindowGrids`), all from one
 * snapshot, so every window places its values by the catalog read first. Only the buckets that
 * can hold data are read (the others would give no line). Ending the iteration releases the
 * snapshot.
 */
export async function* exportUsage(
  facts: FactReads,
  plan: UsageQueryPlan,
  options: ExportOptions = {},
): AsyncGenerator<ExportWindow> {
  const snapshot = await facts.snapshot(plan, options.signal);
  try {
    const [catalog, extent] = await Promise.all([
      snapshot.catalog(plan.groupBy),
      snapshot.extent(plan.groupBy),
    ]);
    const grid = bucketsOverData(plan.grid, extent);
    if (!grid) return;
    for (const windowGrid of exportWindowGrids(grid, catalog.ids.length + 1, options.windowCells)) {
      if (options.signal?.aborted) return;
      const window = { ...plan, grid: windowGrid };
      yield { plan: window, matrix: await snapshot.matrix(window, catalog, extent) };
    }
  } finally {
    await snapshot.release();
  }
}
