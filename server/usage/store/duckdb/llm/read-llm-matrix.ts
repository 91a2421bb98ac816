import type {
  DuckDBConnection,
  DuckDBDoubleVector,
  DuckDBIntegerVector,
  DuckDBVarCharVector,
} from '@duckdb/node-api';
import { DAY_MS } from '@contracts/usage/time';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';
import { LLM_ANSWER_MEASURES, LLM_LANES, type LlmAnswer } from '@server/usage/model/llm-answer';
import { createLlmAnswerBuilder } from '@server/usage/model/llm-answer-builder';
import type { LlmQueryPlan } from '@server/usage/model/llm-usage-plan';
import { planRange } from '@server/usage/model/time-segments';
import type { TraceGroupBy } from '@contracts/usage/usage-schema';
import { positionsSql } from '../dimension-sql';
import {
  periodSegments,
  segmentBoundaryElementsSql,
  withBinder,
  type PeriodSegments,
} from '../usage-facts-sql';
import { rawSumsSql } from './query-llm-usage';

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
 * first column is the sum, the others 0). Scalar columns rather than one list per measure:
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
    const elements = LLM_ANSWER_MEASURES.map((m) => segmentBoundaryElementsSql(periods, m));
    slots = elements[0]?.length ?? 1;
    const numbers = [...periods.keys()];
    const workspaces = plan.workspaceIds.map((id) => `${bind(id)}::UUID`).join(', ');
    sources.push(`SELECT dim_id, period, NULL::INTEGER AS k,
        ${LLM_ANSWER_MEASURES.map((m, lane) => columns(m, (slot) => `${elements[lane]?.[slot]}::DOUBLE`)).join(',\n        ')}
      FROM llm_cumulative
      WHERE grouping = ${bind(plan.groupBy)} AND workspace_id IN (${workspaces})
        AND period BETWEEN ${Math.min(...numbers)} AND ${Math.max(...numbers)}`);
  }
  for (const interval of rawIntervals) {
    sources.push(`SELECT dim_id, NULL::INTEGER AS period, k,
        ${LLM_ANSWER_MEASURES.map((m) => columns(m, (slot) => (slot === 0 ? `${m}::DOUBLE` : '0::DOUBLE'))).join(', ')}
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
 * every measure, then laid out as records by bucket, then the catalog's order (label, then id;
 * unlabelled last, by id; the NULL id last). `catalog` must be read in the same transaction.
 */
export async function readLlmDimensionAnswer(
  connection: DuckDBConnection,
  plan: LlmQueryPlan & { groupBy: TraceGroupBy },
  from: number,
  catalog: DimensionCatalog,
): Promise<LlmAnswer> {
  const facts = buildLlmFactsSql(plan, from);
  const answer = createLlmAnswerBuilder(plan.groupBy, catalog, plan.grid.count);
  const result = facts ? await connection.run(facts.sql, facts.values) : null;
  const slots = facts?.slots ?? 1;
  let read = new Float64Array(0);
  // A period row's sums over one bucket: the differences of its running totals.
  const spans = new Float64Array(LLM_LANES);
  for (;;) {
    const chunk = await result?.fetchChunk();
    const rows = chunk?.rowCount ?? 0;
    if (!facts || !chunk || rows === 0) break;
    const positionVector = chunk.getColumnVector(0) as DuckDBIntegerVector;
    const strayVector = chunk.getColumnVector(1) as DuckDBVarCharVector;
    const periodVector = chunk.getColumnVector(2) as DuckDBIntegerVector;
    const kVector = chunk.getColumnVector(3) as DuckDBIntegerVector;
    // Column of (lane, boundary slot): 4 + lane * slots + slot.
    const columns = Array.from(
      { length: LLM_LANES * slots },
      (_, i) => chunk.getColumnVector(4 + i) as DuckDBDoubleVector,
    );
    // The chunk's values, column by column (a tight loop per vector), then used row by row.
    const width = columns.length;
    if (read.length < rows * width) read = new Float64Array(rows * width);
    for (let column = 0; column < width; column += 1) {
      const vector = columns[column] as DuckDBDoubleVector;
      for (let row = 0; row < rows; row += 1) read[row * width + column] = vector.getItem(row) ?? 0;
    }
    for (let row = 0; row < rows; row += 1) {
      const position = positionVector.getItem(row);
      const value = answer.valueOf(position, position === null ? strayVector.getItem(row) : null);
      const period = periodVector.getItem(row);
      const base = row * width;
      if (period === null) {
        answer.add(value, kVector.getItem(row) ?? -1, read, base, slots);
        continue;
      }
      const segments = facts.periods.get(period);
      if (!segments) throw new Error(`llm usage: unexpected period ${period}`);
      const { buckets } = segments;
      for (let j = 0; j < buckets.length; j += 1) {
        for (let lane = 0; lane < LLM_LANES; lane += 1) {
          const from = base + lane * slots + j;
          spans[lane] = (read[from + 1] as number) - (read[from] as number);
        }
        answer.add(value, buckets[j] as number, spans);
      }
    }
  }
  return answer.finish();
}
