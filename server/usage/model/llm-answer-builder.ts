import type { TraceGroupBy } from '@contracts/usage/usage-schema';
import type { DimensionCatalog } from './dimension-catalog';
import { LANE, LLM_LANES, type LlmAnswer } from './llm-answer';
import { createMatrixBuilder } from './usage-matrix';

const PRICED = LANE.priced_runs;
const UNPRICED = LANE.unpriced_runs;

export interface LlmAnswerBuilder {
  /** The number of a catalog position, or of an id the catalog lacks (`strayId`). */
  valueOf(position: number | null, strayId: string | null): number;
  /** The number of a value by its id (null: the runs without one). */
  valueOfId(id: string | null): number;
  /**
   * Adds the lanes `lanes[offset + lane * stride]` to (value, bucket `k`): a record of the answer
   * once its runs (priced and unpriced) are more than 0.
   */
  add(value: number, k: number, lanes: ArrayLike<number>, offset?: number, stride?: number): void;
  /** Records by bucket, then the catalog's order (label, then id; unlabelled last, by id). */
  finish(): LlmAnswer;
}

/**
 * Sums of a dimension grouping's LLM answer per (value, bucket) and every measure, laid out as
 * the traces matrix is: values numbered and ordered by `catalog` (read with the facts).
 */
export function createLlmAnswerBuilder(
  groupBy: TraceGroupBy,
  catalog: DimensionCatalog,
  bucketCount: number,
): LlmAnswerBuilder {
  // The matrix numbers the values and orders them, fed each cell's run count; the measures are
  // kept beside it, `LLM_LANES` per (value, bucket), by the matrix's value numbers.
  const matrix = createMatrixBuilder(catalog, bucketCount);
  let sums = new Float64Array((catalog.ids.length + 1) * bucketCount * LLM_LANES);
  const cell = (value: number, k: number) => {
    if (!(k >= 0 && k < bucketCount)) throw new Error(`llm usage: bucket ${k} out of range`);
    const at = (value * bucketCount + k) * LLM_LANES;
    if (at >= sums.length) {
      const grown = new Float64Array(
        Math.max(sums.length * 2, (value + 1) * bucketCount * LLM_LANES),
      );
      grown.set(sums);
      sums = grown;
    }
    return at;
  };
  return {
    valueOf: (position, strayId) => matrix.valueOf(position, strayId),
    valueOfId: (id) => matrix.valueOfId(id),
    add(value, k, lanes, offset = 0, stride = 1) {
      const runs =
        (lanes[offset + PRICED * stride] as number) + (lanes[offset + UNPRICED * stride] as number);
      if (runs === 0) return;
      const at = cell(value, k);
      for (let lane = 0; lane < LLM_LANES; lane += 1) {
        sums[at + lane] = (sums[at + lane] as number) + (lanes[offset + lane * stride] as number);
      }
      matrix.add(value, k, runs);
    },
    finish() {
      const done = matrix.finish();
      const workspaces = groupBy === 'project' ? catalog.workspaces : undefined;
      const groups = done.ids.map((dimId, at) => {
        const parent = dimId === null ? undefined : workspaces?.get(dimId);
        return {
          dimId,
          label: done.labels[at] ?? null,
          workspace: parent ? { id: parent.id, name: parent.name } : null,
          modelName: null,
          modelProvider: null,
        };
      });
      // Each group's number in the matrix (catalog position, or its stray number).
      const numbers = done.ids.map((id, at) => {
        const position = done.positions[at] ?? -1;
        return position >= 0 ? position : matrix.valueOfId(id);
      });
      let count = 0;
      for (let at = 0; at < done.counts.length; at += 1) {
        if ((done.counts[at] as number) > 0) count += 1;
      }
      const answer: LlmAnswer = {
        groups,
        catalog,
        positions: done.positions,
        count,
        buckets: new Int32Array(count),
        groupOf: new Int32Array(count),
        measures: new Float64Array(count * LLM_LANES),
      };
      let record = 0;
      for (let k = 0; k < bucketCount; k += 1) {
        for (let at = 0; at < numbers.length; at += 1) {
          if ((done.counts[at * bucketCount + k] as number) <= 0) continue;
          const base = ((numbers[at] as number) * bucketCount + k) * LLM_LANES;
          answer.buckets[record] = k;
          answer.groupOf[record] = at;
          for (let lane = 0; lane < LLM_LANES; lane += 1) {
            answer.measures[record * LLM_LANES + lane] = sums[base + lane] as number;
          }
          record += 1;
        }
      }
      return answer;
    },
  };
}
