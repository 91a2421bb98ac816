import type {
  DuckDBConnection,
  DuckDBDoubleVector,
  DuckDBIntegerVector,
  DuckDBVarCharVector,
} from '@duckdb/node-api';
import { DAY_MS } from '@contracts/usage/time';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';
import type { LlmQueryPlan, LlmUsageRow } from '@server/usage/model/llm-usage-plan';
import { planRange } from '@server/usage/model/time-segments';
import { createMatrixBuilder } from '@server/usage/model/usage-matrix';
import type { TraceGroupBy } from '@contracts/usage/usage-schema';
import { positionsSql } from '../dimension-sql';
import {
  periodSegments,
  segmentBoundaryElementsSql,
  withBinder,
  type PeriodSegments,
} from '../usage-facts-sql';
import { CUMULATIVE_MEASURES } from './llm-rollup-sql';
import { rawSumsSql } from './query-llm-usage';

/** Measures per (value, bucket) cell, in `CUMULATIVE_MEASURES` order. */
const LANES = CUMULATIVE_MEASURES.length;
const lanes = Object.fromEntries(CUMULATIVE_MEASURES.map((m, lane) => [m, lane])) as Record<
  (typeof CUMULATIVE_MEASURES)[number],
  number
>;
const PRICED = lanes.priced_runs;
const UNPRICED = lanes.unpriced_runs;

/** A facts statement, its parameters, and how its rows read. */
interface LlmFactsSql {
  sql: string;
  values: (string | number)[];
  periods: Map<number, PeriodSegments>;
  /** Value columns per measure: boundaries of a rollup row, the first alone for a raw one. */
  slots: number;
}

/**
 * The facts of a dimension grouping's LLM answer: rows `(position, stray_id, period, k, then
 * `slots` DOUBLE columns per measure)` in no order, as `buildUsageFactsSql` gives traces. Whole
 * UTC days come from `llm_cumulative` (`period` set; a measure's columns are its running totals
 * at the period's segment boundaries), partial days and hours from `llm_runs` (`k` set; the
 * first column is the sum, the others NULL). Scalar columns rather than one list per measure:
 * measured twice as fast. Positions index the dimension table's output order; ids it lacks
 * come as `stray_id`.
 */
function buildLlmFactsSql(
  plan: LlmQueryPlan & { groupBy: TraceGroupBy },
  from: number,
): LlmFactsSql | null {
  const { grid } = plan;
  const { rollupDays, rawIntervals } = planRange(from, grid.endMs, grid.stride.days > 0);
  const { values, bind } = withBinder();
  const sources: string[] = [];
  let periods = new Map<number, PeriodSegments>();
  let slots = 1;
  const columns = (measure: string, read: (slot: number) => string) =>
    Array.from({ length: slots }, (_, slot) => `${read(slot)} AS ${measure}_${slot}`).join(', ');
  if (rollupDays) {
    periods = periodSegments(
      rollupDays.from / DAY_MS,
      rollupDays.to / DAY_MS,
      grid.originMs / DAY_MS,
      grid.stride.days,
    );
    const elements = CUMULATIVE_MEASURES.map((m) => segmentBoundaryElementsSql(periods, m));
    slots = elements[0]?.length ?? 1;
    const numbers = [...periods.keys()];
    const workspaces = plan.workspaceIds.map((id) => `${bind(id)}::UUID`).join(', ');
    sources.push(`SELECT dim_id, period, NULL::INTEGER AS k,
        ${CUMULATIVE_MEASURES.map((m, lane) => columns(m, (slot) => `${elements[lane]?.[slot]}::DOUBLE`)).join(',\n        ')}
      FROM llm_cumulative
      WHERE grouping = ${bind(plan.groupBy)} AND workspace_id IN (${workspaces})
        AND period BETWEEN ${Math.min(...numbers)} AND ${Math.max(...numbers)}`);
  }
  for (const interval of rawIntervals) {
    sources.push(`SELECT dim_id, NULL::INTEGER AS period, k,
        ${CUMULATIVE_MEASURES.map((m) => columns(m, (slot) => (slot === 0 ? `${m}::DOUBLE` : 'NULL::DOUBLE'))).join(', ')}
      FROM (${rawSumsSql(plan, interval, bind)})`);
  }
  if (sources.length === 0) return null;
  const sql = `WITH facts AS (${sources.join('\n      UNION ALL ')}),
    positions AS (${positionsSql(plan.groupBy)})
    SELECT p.position, CASE WHEN p.position IS NULL THEN f.dim_id::VARCHAR END AS stray_id,
      f.period, f.k, f.* EXCLUDE (dim_id, period, k)
    FROM facts f LEFT JOIN positions p ON p.id = f.dim_id`;
  return { sql, values, periods, slots };
}

/**
 * The LLM answer of a workspace, project, user or API key grouping, read as the traces matrix is
 * (`read-usage-matrix.ts`): facts straight from DuckDB's vectors, summed per (value, bucket) for
 * every measure, then written out as rows by bucket, then the catalog's order (label, then id;
 * unlabelled last, by id; the NULL id last). `catalog` must be read in the same transaction.
 */
export async function readLlmDimensionRows(
  connection: DuckDBConnection,
  plan: LlmQueryPlan & { groupBy: TraceGroupBy },
  from: number,
  catalog: DimensionCatalog,
): Promise<LlmUsageRow[]> {
  const facts = buildLlmFactsSql(plan, from);
  if (!facts) return [];
  const bucketCount = plan.grid.count;
  // The builder numbers the values and orders them, fed each cell's run count; the measures
  // are kept beside it, `LANES` per (value, bucket).
  const builder = createMatrixBuilder(catalog, bucketCount);
  let sums = new Float64Array((catalog.ids.length + 1) * bucketCount * LANES);
  const add = (value: number, k: number, lane: number, amount: number) => {
    const at = (value * bucketCount + k) * LANES + lane;
    if (at >= sums.length) {
      const grown = new Float64Array(Math.max(sums.length * 2, (value + 1) * bucketCount * LANES));
      grown.set(sums);
      sums = grown;
    }
    sums[at] = (sums[at] as number) + amount;
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
    // Column of (measure `lane`, boundary `slot`): 4 + lane * slots + slot.
    const columns = Array.from(
      { length: LANES * facts.slots },
      (_, i) => chunk.getColumnVector(4 + i) as DuckDBDoubleVector,
    );
    const read = (lane: number, slot: number, row: number) =>
      (columns[lane * facts.slots + slot] as DuckDBDoubleVector).getItem(row) ?? 0;
    for (let row = 0; row < rows; row += 1) {
      const position = positionVector.getItem(row);
      const value = builder.valueOf(position, position === null ? strayVector.getItem(row) : null);
      const period = periodVector.getItem(row);
      if (period === null) {
        const k = kVector.getItem(row) ?? -1;
        for (let lane = 0; lane < LANES; lane += 1) add(value, k, lane, read(lane, 0, row));
        builder.add(value, k, read(PRICED, 0, row) + read(UNPRICED, 0, row));
        continue;
      }
      const segments = facts.periods.get(period);
      if (!segments) throw new Error(`llm usage: unexpected period ${period}`);
      const { buckets } = segments;
      for (let j = 0; j < buckets.length; j += 1) {
        const k = buckets[j] as number;
        let runs = 0;
        for (let lane = 0; lane < LANES; lane += 1) {
          const amount = read(lane, j + 1, row) - read(lane, j, row);
          if (amount === 0) continue;
          add(value, k, lane, amount);
          if (lane === PRICED || lane === UNPRICED) runs += amount;
        }
        if (runs > 0) builder.add(value, k, runs);
      }
    }
  }

  const matrix = builder.finish();
  // Each output value's number in the builder (catalog position, or its stray number).
  const numbers = matrix.ids.map((id, at) => {
    const position = matrix.positions[at] ?? -1;
    return position >= 0 ? position : builder.valueOfId(id);
  });
  const workspaces = plan.groupBy === 'project' ? catalog.workspaces : undefined;
  const parents = matrix.ids.map((id) => {
    const parent = id === null ? undefined : workspaces?.get(id);
    return parent ? { id: parent.id, name: parent.name } : null;
  });
  const answer: LlmUsageRow[] = [];
  for (let k = 0; k < bucketCount; k += 1) {
    for (let at = 0; at < numbers.length; at += 1) {
      if ((matrix.counts[at * bucketCount + k] as number) <= 0) continue;
      const base = ((numbers[at] as number) * bucketCount + k) * LANES;
      answer.push({
        bucket: k,
        dimId: matrix.ids[at] ?? null,
        label: matrix.labels[at] ?? null,
        workspace: parents[at] ?? null,
        modelName: null,
        modelProvider: null,
        inputTokens: sums[base + lanes.input_tokens] as number,
        outputTokens: sums[base + lanes.output_tokens] as number,
        cacheReadTokens: sums[base + lanes.cache_read_tokens] as number,
        cacheCreationTokens: sums[base + lanes.cache_creation_tokens] as number,
        totalTokens: sums[base + lanes.total_tokens] as number,
        costNanos: sums[base + lanes.cost_nanos] as number,
        pricedRuns: sums[base + PRICED] as number,
        unpricedRuns: sums[base + UNPRICED] as number,
      });
    }
  }
  return answer;
}
