import type {
  DuckDBConnection,
  DuckDBDoubleVector,
  DuckDBIntegerVector,
  DuckDBListVector,
  DuckDBVarCharVector,
} from '@duckdb/node-api';
import { DAY_MS } from '@contracts/usage/time';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';
import type { LlmQueryPlan, LlmUsageRow } from '@server/usage/model/llm-usage-plan';
import { planRange } from '@server/usage/model/time-segments';
import { createMatrixBuilder } from '@server/usage/model/usage-matrix';
import type { TraceGroupBy } from '@contracts/usage/usage-schema';
import { positionsSql } from '../dimension-sql';
import { periodSegments, segmentBoundariesSql, type PeriodSegments } from '../usage-facts-sql';
import { CUMULATIVE_MEASURES } from './llm-rollup-sql';
import { rawSumsSql, withBinder } from './query-llm-usage';

/** Measures per (value, bucket) cell, in `CUMULATIVE_MEASURES` order. */
const LANES = CUMULATIVE_MEASURES.length;
const lanes = Object.fromEntries(CUMULATIVE_MEASURES.map((m, lane) => [m, lane])) as Record<
  (typeof CUMULATIVE_MEASURES)[number],
  number
>;
const PRICED = lanes.priced_runs;
const UNPRICED = lanes.unpriced_runs;

/**
 * The facts of a dimension grouping's LLM answer: rows `(position, stray_id, period, k, <one
 * DOUBLE[] per measure>)` in no order, as `buildUsageFactsSql` gives traces: whole UTC days from
 * `llm_cumulative` (the running totals at the period's segment boundaries, `period` set), partial
 * days and hours from `llm_runs` (one-element lists, `k` set). Positions index the dimension
 * table's output order; ids it lacks come as `stray_id`.
 */
function buildLlmFactsSql(
  plan: LlmQueryPlan & { groupBy: TraceGroupBy },
  from: number,
): { sql: string; values: string[]; periods: Map<number, PeriodSegments> } | null {
  const { grid } = plan;
  const { rollupDays, rawIntervals } = planRange(from, grid.endMs, grid.stride.days > 0);
  const { values, bind } = withBinder();
  const sources: string[] = [];
  let periods = new Map<number, PeriodSegments>();
  if (rollupDays) {
    periods = periodSegments(
      rollupDays.from / DAY_MS,
      rollupDays.to / DAY_MS,
      grid.originMs / DAY_MS,
      grid.stride.days,
    );
    const numbers = [...periods.keys()];
    const workspaces = plan.workspaceIds.map((id) => `${bind(id)}::UUID`).join(', ');
    sources.push(`SELECT dim_id, period, NULL::INTEGER AS k,
        ${CUMULATIVE_MEASURES.map((m) => `${segmentBoundariesSql(periods, m)} AS ${m}`).join(',\n        ')}
      FROM llm_cumulative
      WHERE grouping = ${bind(plan.groupBy)} AND workspace_id IN (${workspaces})
        AND period BETWEEN ${Math.min(...numbers)} AND ${Math.max(...numbers)}`);
  }
  for (const interval of rawIntervals) {
    sources.push(`SELECT dim_id, NULL::INTEGER AS period, k,
        ${CUMULATIVE_MEASURES.map((m) => `[${m}]::DOUBLE[] AS ${m}`).join(', ')}
      FROM (${rawSumsSql(plan, interval, bind)})`);
  }
  if (sources.length === 0) return null;
  const sql = `WITH facts AS (${sources.join('\n      UNION ALL ')}),
    positions AS (${positionsSql(plan.groupBy)})
    SELECT p.position, CASE WHEN p.position IS NULL THEN f.dim_id::VARCHAR END AS stray_id,
      f.period, f.k, ${CUMULATIVE_MEASURES.map((m) => `f.${m}`).join(', ')}
    FROM facts f LEFT JOIN positions p ON p.id = f.dim_id`;
  return { sql, values, periods };
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
    const lists = CUMULATIVE_MEASURES.map(
      (_, lane) => chunk.getColumnVector(4 + lane) as DuckDBListVector,
    );
    const items = lists.map((list) => list.childVector as DuckDBDoubleVector);
    for (let row = 0; row < rows; row += 1) {
      const position = positionVector.getItem(row);
      const value = builder.valueOf(position, position === null ? strayVector.getItem(row) : null);
      const period = periodVector.getItem(row);
      const offsets = lists.map((list) => list.getEntryOffset(row));
      if (period === null) {
        const k = kVector.getItem(row) ?? -1;
        let runs = 0;
        for (let lane = 0; lane < LANES; lane += 1) {
          const amount = items[lane]?.getItem(offsets[lane] as number) ?? 0;
          add(value, k, lane, amount);
          if (lane === PRICED || lane === UNPRICED) runs += amount;
        }
        builder.add(value, k, runs);
        continue;
      }
      const segments = facts.periods.get(period);
      if (!segments) throw new Error(`llm usage: unexpected period ${period}`);
      const { buckets } = segments;
      for (let j = 0; j < buckets.length; j += 1) {
        const k = buckets[j] as number;
        let runs = 0;
        for (let lane = 0; lane < LANES; lane += 1) {
          const vector = items[lane] as DuckDBDoubleVector;
          const at = offsets[lane] as number;
          const amount = (vector.getItem(at + j + 1) ?? 0) - (vector.getItem(at + j) ?? 0);
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
  const answer: LlmUsageRow[] = [];
  for (let k = 0; k < bucketCount; k += 1) {
    for (let at = 0; at < numbers.length; at += 1) {
      if ((matrix.counts[at * bucketCount + k] as number) <= 0) continue;
      const base = ((numbers[at] as number) * bucketCount + k) * LANES;
      const lane = (measure: number) => sums[base + measure] as number;
      const dimId = matrix.ids[at] ?? null;
      const parent = dimId === null ? undefined : workspaces?.get(dimId);
      answer.push({
        bucket: k,
        dimId,
        label: matrix.labels[at] ?? null,
        workspace: parent ? { id: parent.id, name: parent.name } : null,
        modelName: null,
        modelProvider: null,
        inputTokens: lane(lanes.input_tokens),
        outputTokens: lane(lanes.output_tokens),
        cacheReadTokens: lane(lanes.cache_read_tokens),
        cacheCreationTokens: lane(lanes.cache_creation_tokens),
        totalTokens: lane(lanes.total_tokens),
        costNanos: lane(lanes.cost_nanos),
        pricedRuns: lane(PRICED),
        unpricedRuns: lane(UNPRICED),
      });
    }
  }
  return answer;
}
