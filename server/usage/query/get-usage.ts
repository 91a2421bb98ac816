import type { DuckDBConnection } from '@duckdb/node-api';
import type { DimensionCatalogs } from '../store/dimension-catalog';
import { inSnapshot } from '../store/usage-store';
import type { UsageQueryPlan } from './usage-facts-sql';
import { queryUsageMatrix, type UsageMatrix } from './usage-matrix';

/**
 * The usage answer to a plan as a (value x bucket) matrix: the dimension catalog and the facts
 * are read in one snapshot, so the positions the facts carry index the catalog read with them.
 */
export function getUsage(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
  catalogs: DimensionCatalogs,
): Promise<UsageMatrix> {
  return inSnapshot(connection, async () => {
    const catalog = await catalogs(connection, plan.groupBy);
    return queryUsageMatrix(connection, plan, catalog);
  });
}
