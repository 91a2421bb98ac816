import { bucketsOverData } from '@server/usage/model/data-extent';
import type { UsageAnswer } from '@server/usage/model/usage-matrix';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { FactReads } from '@server/usage/store/usage-store';

/**
 * The usage answer to a plan as a (value x bucket) matrix: the dimension catalog, the data's
 * extent and the facts are read in one snapshot, so the positions the facts carry index the
 * catalog read with them. The matrix covers only the buckets that can hold data (see
 * `bucketsOverData`): the answer's plan is the asked one with its grid cut to them.
 */
export async function getUsage(facts: FactReads, plan: UsageQueryPlan): Promise<UsageAnswer> {
  const snapshot = await facts.snapshot(plan);
  try {
    const [catalog, extent] = await Promise.all([
      snapshot.catalog(plan.groupBy),
      snapshot.extent(plan.groupBy),
    ]);
    const cut = { ...plan, grid: bucketsOverData(plan.grid, extent) ?? plan.grid.window(0, 0) };
    return { plan: cut, matrix: await snapshot.matrix(cut, catalog, extent) };
  } finally {
    await snapshot.release();
  }
}
