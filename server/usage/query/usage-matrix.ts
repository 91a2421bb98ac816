import type {
  DuckDBDoubleVector,
  DuckDBIntegerVector,
  DuckDBListVector,
  DuckDBVarCharVector,
  DuckDBConnection,
} from '@duckdb/node-api';
import type { DimensionCatalog } from '../store/dimension-catalog';
import { clampToData } from './data-extent';
import type { Interval } from './time-segments';
import { buildUsageFactsSql, type UsageQueryPlan } from './usage-facts-sql';

/**
 * The answer to a usage query as a (dimension value x bucket) matrix of trace counts. Holding it
 * this way rather than as 65k record rows is what makes the 1-year user answer cheap: DuckDB
 * returns a few facts per dimension value, and the renderers walk the matrix bucket by bucket,
 * skipping zeros, to write records in the spec's order (bucket, then label).
 */
export interface UsageMatrix {
  /** Buckets of the plan's grid (`grid.count`), the last possibly partial. */
  bucketCount: number;
  /** Dimension values in output order: by label, then id; unlabelled last; the NULL id last. */
  ids: (string | null)[];
  labels: (string | null)[];
  /** Per value, its position in `catalog`, or -1 for an id the dimension table lacks. */
  positions: Int32Array;
  catalog: DimensionCatalog;
  /** `counts[value * bucketCount + k]`: traces of `ids[value]` in bucket `k` (0 = no record). */
  counts: Float64Array;
}

/** A matrix and the plan whose grid its buckets index (what the renderers take). */
export interface UsageAnswer {
  plan: UsageQueryPlan;
  matrix: UsageMatrix;
}

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
  const bucketCount = plan.grid.count;
  const empty: UsageMatrix = {
    bucketCount,
    ids: [],
    labels: [],
    positions: new Int32Array(0),
    catalog,
    counts: new Float64Array(0),
  };
  const facts = buildUsageFactsSql(clampToData(plan, extent));
  if (!facts) return empty;
  // Value numbers: the dimension table's positions first, then stray ids and the NULL id.
  const known = catalog.ids.length;
  const strayIds: (string | null)[] = [];
  const strays = new Map<string | null, number>();
  const idOf = (value: number) =>
    (value < known ? catalog.ids[value] : strayIds[value - known]) ?? null;
  let counts = new Float64Array((known + 1) * bucketCount);
  const valueOfStray = (id: string | null) => {
    let value = strays.get(id);
    if (value === undefined) {
      value = known + strayIds.length;
      strays.set(id, value);
      strayIds.push(id);
      if ((value + 1) * bucketCount > counts.length) {
        const grown = new Float64Array(counts.length * 2);
        grown.set(counts);
        counts = grown;
      }
    }
    return value;
  };
  const add = (value: number, k: number, traces: number) => {
    if (!(k >= 0 && k < bucketCount)) throw new Error(`usage matrix: bucket ${k} out of range`);
    counts[value * bucketCount + k] = (counts[value * bucketCount + k] as number) + traces;
  };

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
      // Positions index the catalog, read in the same snapshot.
      if (position !== null && position >= known) {
        throw new Error('usage matrix: the dimension table changed during the query');
      }
      const value = position ?? valueOfStray(strayVector.getItem(row));
      const at = valsVector.getEntryOffset(row);
      const period = periodVector.getItem(row);
      if (period === null) {
        add(value, kVector.getItem(row) ?? -1, vals.getItem(at) ?? 0);
        continue;
      }
      const segments = facts.periods.get(period);
      if (!segments) throw new Error(`usage matrix: unexpected period ${period}`);
      const { buckets } = segments;
      let previous = vals.getItem(at) ?? 0;
      for (let j = 0; j < buckets.length; j += 1) {
        const next = vals.getItem(at + j + 1) ?? 0;
        if (next !== previous) add(value, buckets[j] as number, next - previous);
        previous = next;
      }
    }
  }

  // Output order: labelled values as the table sorts them, then every unlabelled value by id
  // (UUID text order is DuckDB's UUID order), the NULL id last; values with no trace dropped.
  const hasTraces = (value: number) => {
    for (let k = 0; k < bucketCount; k += 1) {
      if ((counts[value * bucketCount + k] as number) > 0) return true;
    }
    return false;
  };
  const labelOf = (value: number) => catalog.labels[value] ?? null;
  const present = Array.from({ length: known + strayIds.length }, (_, value) => value).filter(
    hasTraces,
  );
  const labelled = present.filter((value) => labelOf(value) !== null);
  const unlabelled = present
    .filter((value) => labelOf(value) === null)
    .sort((a, b) => compareIds(idOf(a), idOf(b)));
  const order = [...labelled, ...unlabelled];
  const matrix: UsageMatrix = {
    ...empty,
    positions: new Int32Array(order.length),
    counts: new Float64Array(order.length * bucketCount),
  };
  order.forEach((value, at) => {
    matrix.ids.push(idOf(value));
    matrix.labels.push(labelOf(value));
    matrix.positions[at] = value < known ? value : -1;
    matrix.counts.set(
      counts.subarray(value * bucketCount, (value + 1) * bucketCount),
      at * bucketCount,
    );
  });
  return matrix;
}

/** Ids in DuckDB's `ORDER BY id NULLS LAST` order (canonical lower-case UUID text sorts so). */
function compareIds(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
