import type {
  DuckDBConnection,
  DuckDBDoubleVector,
  DuckDBIntegerVector,
  DuckDBListVector,
  DuckDBVarCharVector,
} from '@duckdb/node-api';
import { clampToData } from '@server/usage/model/data-extent';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';
import type { Interval } from '@server/usage/model/time-segments';
import {
  createMatrixBuilder,
  emptyMatrix,
  type UsageMatrix,
} from '@server/usage/model/usage-matrix';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import { buildUsageFactsSql } from './usage-facts-sql';

/**
 * The answer to `plan` as a matrix: the facts (`buildUsageFactsSql`), read straight from
 * DuckDB's vectors (no row objects) and summed into the matrix by value and bucket. `catalog` is
 * the dimension table as the same snapshot sees it (see `createDimensionCatalogs`), `extent` the
 * span that holds data (`readDataExtent`, same snapshot), to which DuckDB's reads are cut. Values
 * without a trace in the range are dropped; values missing from the dimension table (traces may
 * name any id) go with the unlabelled ones.
 */
export async function queryUsageMatrix(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
  catalog: DimensionCatalog,
  extent: Interval | null,
): Promise<UsageMatrix> {
  const facts = buildUsageFactsSql(clampToData(plan, extent));
  if (!facts) return emptyMatrix(catalog, plan.grid.count);
  const builder = createMatrixBuilder(catalog, plan.grid.count);
  const result = await connection.run(facts.sql, facts.values);
  for (;;) {
    const chunk = await result.fetchChunk();
    const rows = chunk?.rowCount ?? 0;
    if (!chunk || rows === 0) break;
    const positionVector = chunk.getColumnVector(0) as DuckDBIntegerVector;
    const strayVector = chunk.getColumnVector(1) as DuckDBVarCharVector;
    const periodVector = chunk.getColumnVector(2) as DuckDBIntegerVector;
    const kVector = chunk.getColumnVector(3) as DuckDBIntegerVector;
    const valsVector = chunk.getColumnVector(4) as DuckDBListVector;
    const vals = valsVector.childVector as DuckDBDoubleVector;
    for (let row = 0; row < rows; row += 1) {
      const position = positionVector.getItem(row);
      const value = builder.valueOf(position, position === null ? strayVector.getItem(row) : null);
      const at = valsVector.getEntryOffset(row);
      const period = periodVector.getItem(row);
      if (period === null) {
        builder.add(value, kVector.getItem(row) ?? -1, vals.getItem(at) ?? 0);
        continue;
      }
      const segments = facts.periods.get(period);
      if (!segments) throw new Error(`usage matrix: unexpected period ${period}`);
      const { buckets } = segments;
      let previous = vals.getItem(at) ?? 0;
      for (let j = 0; j < buckets.length; j += 1) {
        const next = vals.getItem(at + j + 1) ?? 0;
        if (next !== previous) builder.add(value, buckets[j] as number, next - previous);
        previous = next;
      }
    }
  }
  return builder.finish();
}
