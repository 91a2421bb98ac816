import { planRange, type Interval } from '@server/usage/model/time-segments';
import { dataFrom, dataTo, type UsageQueryPlan } from '@server/usage/model/usage-plan';
import { PERIOD_DAYS } from './cumulative-rollup';
import { DIMENSIONS, positionsSql } from './dimension-sql';
import { DAY_MS } from '@contracts/usage/time';

/** A statement and its bound parameters. */
export interface BoundSql {
  sql: string;
  values: (string | number)[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Numbered parameters (`$1`, `$2`, …) and their values, in the order they are bound. */
export function withBinder(): {
  values: (string | number)[];
  bind: (value: string | number) => string;
} {
  const values: (string | number)[] = [];
  return {
    values,
    bind: (value) => {
      values.push(value);
      return `$${values.length}`;
    },
  };
}

const workspacesSql = (plan: UsageQueryPlan, bind: (value: string) => string) =>
  `workspace_id IN (${plan.workspaceIds.map((id) => `${bind(id)}::UUID`).join(', ')})`;

/** Traces of `[from, to)` counted per (bucket number, dimension value): the raw source. */
function rawCountsSql(
  plan: UsageQueryPlan,
  interval: Interval,
  bind: (value: string) => string,
): string {
  const { originMs, stepMs } = plan.grid;
  return `SELECT ((epoch_ms(start_time) - ${originMs}) // ${stepMs})::INTEGER AS k,
      ${DIMENSIONS[plan.groupBy].column} AS dim_id, count(*)::DOUBLE AS traces
    FROM traces
    WHERE ${workspacesSql(plan, bind)} AND start_time >= ${bind(iso(interval.from))}::TIMESTAMP
      AND start_time < ${bind(iso(interval.to))}::TIMESTAMP
      ${plan.traceTier ? `AND trace_tier = ${bind(plan.traceTier)}` : ''}
    GROUP BY ALL`;
}

/**
 * One row per (bucket, dimension) with traces > 0, read from raw traces only, ordered by
 * bucket, then label, then id (unlabelled values last, by id; the NULL id last): `bucket_ms`
 * (DOUBLE), `dim_id`, `label` (VARCHAR, either may be NULL), `traces` (DOUBLE). This is the
 * answer computed the obvious way: the tests' reference and the benchmark's baseline. The API
 * reads `buildUsageFactsSql` instead. Null when no data can match.
 */
export function buildRawUsageSql(plan: UsageQueryPlan): BoundSql | null {
  const { values, bind } = withBinder();
  const from = dataFrom(plan);
  const { grid } = plan;
  const to = dataTo(plan);
  if (from >= to) return null;
  const dim = DIMENSIONS[plan.groupBy];
  const sql = `WITH buckets AS (${rawCountsSql(plan, { from, to }, bind)})
    SELECT (${grid.originMs} + k::BIGINT * ${grid.stepMs})::DOUBLE
        AS bucket_ms,
      b.dim_id::VARCHAR AS dim_id, d.${dim.label} AS label, b.traces
    FROM buckets b LEFT JOIN ${dim.table} d ON d.id = b.dim_id
    ORDER BY k, d.${dim.label} NULLS LAST, b.dim_id NULLS LAST`;
  return { sql, values };
}

/**
 * How the rollup rows of one 128-day period split into buckets: `indexes` are the positions
 * (1-based, into the row's `cum` list) of the period's segment boundaries, and `buckets[j]` is
 * the bucket number of segment `j`, whose traces are `cum[indexes[j + 1]] - cum[indexes[j]]`.
 */
export interface PeriodSegments {
  indexes: number[];
  buckets: number[];
}

/**
 * The running-total list column `list` read at the boundaries of its row's period (column
 * `period`): element j is `list[index j]`. Periods with fewer boundaries repeat their last one (a
 * zero-length segment the reader never reaches). Scalar element reads measured faster than one
 * `list_select` with a per-row list of indexes.
 */
export function segmentBoundaryElementsSql(
  periods: Map<number, PeriodSegments>,
  list: string,
): string[] {
  const slots = Math.max(...[...periods.values()].map((segments) => segments.indexes.length));
  return Array.from({ length: slots }, (_, slot) => {
    const cases = [...periods].map(([period, { indexes }]) => {
      const index = indexes[Math.min(slot, indexes.length - 1)] as number;
      return `WHEN ${period} THEN ${index}`;
    });
    return `${list}[CASE period ${cases.join(' ')} END]`;
  });
}

/** The usage facts of a plan: their statement and how to read its rollup rows. */
export interface UsageFactsSql extends BoundSql {
  /** Per period number read from `usage_cumulative`, its segments. */
  periods: Map<number, PeriodSegments>;
}

/**
 * Splits the whole days `[first, end)` (epoch days) at the bucket grid and at the period
 * boundaries.
 */
export function periodSegments(
  first: number,
  end: number,
  originDay: number,
  strideDays: number,
): Map<number, PeriodSegments> {
  const periods = new Map<number, PeriodSegments>();
  for (let day = first; day < end;) {
    const period = Math.floor(day / PERIOD_DAYS);
    const periodStart = period * PERIOD_DAYS;
    const periodEnd = Math.min(end, periodStart + PERIOD_DAYS);
    const segments: PeriodSegments = { indexes: [day - periodStart + 1], buckets: [] };
    while (day < periodEnd) {
      const bucket = Math.floor((day - originDay) / strideDays);
      day = Math.min(periodEnd, originDay + (bucket + 1) * strideDays);
      segments.buckets.push(bucket);
      segments.indexes.push(day - periodStart + 1);
    }
    periods.set(period, segments);
  }
  return periods;
}

/**
 * The facts of a usage query, for `queryUsageMatrix`: rows `(position INTEGER, stray_id
 * VARCHAR, period INTEGER, k INTEGER, vals DOUBLE[])` in no particular order. `position` is
 * the value's place in `buildDimensionLabelsSql`; values the dimension table does not know
 * (traces may name any id) have a NULL position and their id in `stray_id` (both NULL for the
 * NULL id). Integers rather than ids, because reading a string out of DuckDB costs a native call.
 * - Whole UTC days come from `usage_cumulative`, one row per (workspace, value, period) with
 *   `period` set: `vals` are the running totals at the period's segment boundaries (see
 *   `PeriodSegments`), so a bucket costs two list reads per value whatever its length.
 * - Partial days at the ends, and hourly ranges, come from `traces`, one row per (bucket `k`,
 *   value) with `vals = [traces]` and `period` NULL.
 * Several rows may add to one (value, bucket); the reader sums them. Identifiers come from the
 * fixed table above; every value is a bound parameter or a number computed here. Null when no
 * data can match.
 */
export function buildUsageFactsSql(plan: UsageQueryPlan): UsageFactsSql | null {
  const { values, bind } = withBinder();
  const { grid } = plan;
  const hourly = grid.stride.days === 0;
  // The rollups count tiers as a grouping of their own (`trace_tier`), not within the others:
  // a tier filter reads raw traces.
  const useRollup = !hourly && plan.traceTier === undefined;
  const { rollupDays, rawIntervals } = planRange(dataFrom(plan), dataTo(plan), useRollup);
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
    sources.push(`SELECT dim_id, period, NULL::INTEGER AS k,
        [${segmentBoundaryElementsSql(periods, 'cum').join(', ')}]::DOUBLE[] AS vals
      FROM usage_cumulative
      WHERE grouping = ${bind(plan.groupBy)} AND ${workspacesSql(plan, bind)}
        AND period BETWEEN ${Math.min(...numbers)} AND ${Math.max(...numbers)}`);
  }
  for (const interval of rawIntervals) {
    sources.push(
      `SELECT dim_id, NULL::INTEGER AS period, k, [traces] AS vals
      FROM (${rawCountsSql(plan, interval, bind)})`,
    );
  }
  // Nothing to read (the whole range lies before the floor): the answer is no rows.
  if (sources.length === 0) return null;
  const sql = `WITH facts AS (${sources.join('\n      UNION ALL ')}),
    positions AS (${positionsSql(plan.groupBy)})
    SELECT p.position, CASE WHEN p.position IS NULL THEN f.dim_id::VARCHAR END AS stray_id,
      f.period, f.k, f.vals
    FROM facts f LEFT JOIN positions p ON p.id = f.dim_id`;
  return { sql, values, periods };
}
