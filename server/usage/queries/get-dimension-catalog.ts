import type { TraceGroupBy } from '@contracts/usage/usage-schema';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';
import type { FactReads } from '@server/usage/store/usage-store';

/** A dimension table in output order, as the next usage answer would place its values. */
export async function getDimensionCatalog(
  facts: FactReads,
  groupBy: TraceGroupBy,
): Promise<DimensionCatalog> {
  const snapshot = await facts.snapshot();
  try {
    return await snapshot.catalog(groupBy);
  } finally {
    await snapshot.release();
  }
}
