import type { Pool } from 'pg';
import type { TraceGroupBy } from '@contracts/usage/usage-schema';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';
import type { FactReads } from '@server/usage/store/usage-store';
import type { ClickHouseReader } from './clickhouse/reader';
import { queryDeploymentUsage } from './query-deployment-usage';
import { readDataExtent } from './read-data-extent';
import { queryUsageMatrix, readDaysEarly } from './read-usage-matrix';

/**
 * The facts of ClickHouse + Postgres: traces and rollups in ClickHouse, the catalog and the
 * deployment rows in Postgres. A snapshot holds nothing (each read is a request of its own); it
 * starts the plan's whole-day read at once, before the catalog and extent are known, so that read
 * is off the answer's critical path.
 */
export function createScaleOutFacts(
  pool: Pool,
  reader: ClickHouseReader,
  catalogs: (groupBy: TraceGroupBy) => Promise<DimensionCatalog>,
): FactReads {
  return {
    async snapshot(plan) {
      const early = plan ? readDaysEarly(reader, plan) : null;
      return {
        catalog: catalogs,
        extent: () => readDataExtent(reader),
        matrix: (cut, catalog, extent) => queryUsageMatrix(reader, cut, catalog, extent, early),
        release: async () => undefined,
      };
    },
    deploymentRows: (plan) => queryDeploymentUsage(pool, plan),
  };
}
