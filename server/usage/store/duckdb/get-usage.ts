import type { DuckDBConnection } from '@duckdb/node-api';
import { bucketsOverData } from '@server/usage/model/data-extent';
import type { UsageAnswer } from '@server/usage/model/usage-matrix';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { DimensionCatalogs } from './dimension-catalogs';
import { inSnapshot } from './duckdb-store';
import { readDataExtent } from './read-data-extent';
import { queryUsageMatrix } from './read-usage-matrix';

/**
 * The usage answer to a plan as a (value x bucket) matrix: the dimension catalog, the data's
 * extent and the facts are read in one snapshot, so the positions the facts carry index the
 * catalog read with them. The matrix covers only the buckets that can hold data (see
 * `bucketsOverData`): the answer's plan is the asked one with its grid cut to them.
 */
export function getUsage(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
  catalogs: DimensionCatalogs,
): Promise<UsageAnswer> {
  return inSnapshot(connection, async () => {
    const catalog = await catalogs(connection, plan.groupBy);
    const extent = await readDataExtent(connection, plan.groupBy);
    const cut = { ...plan, grid: bucketsOverData(plan.grid, extent) ?? plan.grid.window(0, 0) };
    return { plan: cut, matrix: await queryUsageMatrix(connection, cut, catalog, extent) };
  });
}
