import { catalogPositions, type DimensionCatalog } from './dimension-catalog';
import type { UsageQueryPlan } from './usage-plan';

/**
 * The answer to a usage query as a (dimension value x bucket) matrix of trace counts. Holding it
 * this way rather than as 65k record rows is what makes the 1-year user answer cheap: a backend
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
 * Sums facts into a matrix. A value is numbered by its catalog position, or (for ids the
 * dimension table lacks, and the NULL id) after the catalog. Backends feed it their facts in any
 * order; several facts may add to one (value, bucket).
 */
export interface MatrixBuilder {
  /** The value number of a catalog position, or of a stray id (`position` null). */
  valueOf(position: number | null, strayId: string | null): number;
  /** The value number of an id as traces name it (catalog or stray). */
  valueOfId(id: string | null): number;
  /** Adds `traces` to (value, bucket `k`). */
  add(value: number, k: number, traces: number): void;
  /** The matrix in output order, values without a trace dropped. */
  finish(): UsageMatrix;
}

export function emptyMatrix(catalog: DimensionCatalog, bucketCount: number): UsageMatrix {
  return {
    bucketCount,
    ids: [],
    labels: [],
    positions: new Int32Array(0),
    catalog,
    counts: new Float64Array(0),
  };
}

export function createMatrixBuilder(catalog: DimensionCatalog, bucketCount: number): MatrixBuilder {
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
        const grown = new Float64Array(Math.max(counts.length * 2, (value + 1) * bucketCount));
        grown.set(counts);
        counts = grown;
      }
    }
    return value;
  };
  const positions = catalogPositions(catalog);
  return {
    valueOf(position, strayId) {
      // Positions index the catalog, read in the same snapshot.
      if (position !== null && position >= known) {
        throw new Error('usage matrix: the dimension table changed during the query');
      }
      return position ?? valueOfStray(strayId);
    },
    valueOfId(id) {
      const position = id === null ? undefined : positions.get(id);
      return position ?? valueOfStray(id);
    },
    add(value, k, traces) {
      if (!(k >= 0 && k < bucketCount)) throw new Error(`usage matrix: bucket ${k} out of range`);
      counts[value * bucketCount + k] = (counts[value * bucketCount + k] as number) + traces;
    },
    finish() {
      // Output order: labelled values as the table sorts them, then every unlabelled value by
      // id (UUID text order), the NULL id last; values with no trace dropped.
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
        ...emptyMatrix(catalog, bucketCount),
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
    },
  };
}

/** Ids in `ORDER BY id NULLS LAST` order (canonical lower-case UUID text sorts so). */
function compareIds(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
