import type { GroupBy } from '@contracts/usage/usage-schema';
import { clampToData } from '@server/usage/model/data-extent';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';
import { planRange, type Interval } from '@server/usage/model/time-segments';
import { TIER_IDS } from '@server/usage/model/trace-tiers';
import {
  createMatrixBuilder,
  emptyMatrix,
  type MatrixBuilder,
  type UsageMatrix,
} from '@server/usage/model/usage-matrix';
import { dataFrom, dataTo, readsTiers, type UsageQueryPlan } from '@server/usage/model/usage-plan';
import { dayLiteral, workspacesSql } from './clickhouse/client';
import { dimensionColumns } from './clickhouse/dimension-columns';
import type { ClickHouseReader } from './clickhouse/reader';
import { tsvNumbers } from './clickhouse/tsv-array';
import { PERIOD_DAYS } from './clickhouse/periods';
import { bucketDays } from './clickhouse/bucket-days';
import { DAY_MS } from '@contracts/usage/time';

/** A tier as stored (`traces.trace_tier`, `usage_daily_tiered.tier`): 1 long-lived, 0 short. */
const tierNumber = (plan: UsageQueryPlan) => (plan.traceTier === 'longlived' ? 1 : 0);

/** The tier filter on `column`, when the plan has one. */
const tierFilter = (plan: UsageQueryPlan, column: string) =>
  plan.traceTier ? `AND ${column} = ${tierNumber(plan)}` : '';

/** The tier of `column` as the tier dimension's id (see `TIER_CATALOG`). */
const tierId = (column: string) =>
  `if(${column} = 1, toUUID('${TIER_IDS.longlived}'), toUUID('${TIER_IDS.shortlived}'))`;

/**
 * The rollup grouping a plan reads (a tier grouping reads the workspace rows, which count every
 * trace once, by their tier) and the selected `has, dim` of a value.
 */
function rollupDimension(groupBy: UsageQueryPlan['groupBy']): { grouping: GroupBy; dim: string } {
  if (groupBy === 'trace_tier')
    return { grouping: 'workspace', dim: `1 AS has, ${tierId('tier')}` };
  return { grouping: groupBy, dim: 'has_dim AS has, dim_id' };
}

/** A trace's value, selected as `has, dim`. */
function rawDimension(groupBy: UsageQueryPlan['groupBy']): string {
  if (groupBy === 'trace_tier') return `toUInt8(1) AS has, ${tierId('trace_tier')} AS dim`;
  return dimensionColumns(groupBy, 'has', 'dim');
}

/**
 * Whole UTC days `[from, to)` counted per (bucket, value) from a daily rollup: a plan with a
 * tier filter or grouping reads `usage_daily_tiered`; the others `usage_daily`, which holds the
 * same counts without the tier in the key (dataset M, by user: 1.6 M rows instead of 2.6 M).
 */
function dailyRollupSql(plan: UsageQueryPlan, days: Interval): string {
  const { originMs, stepMs } = plan.grid;
  const { grouping, dim } = rollupDimension(plan.groupBy);
  return `SELECT intDiv(toInt64(toUInt16(day)) * ${DAY_MS} - ${originMs}, ${stepMs}) AS k,
      ${dim} AS dim, sum(traces) AS n
    FROM ${readsTiers(plan) ? 'usage_daily_tiered' : 'usage_daily'}
    WHERE grouping = '${grouping}' AND ${workspacesSql(plan.workspaceIds)}
      AND day >= ${dayLiteral(days.from)} AND day < ${dayLiteral(days.to)}
      ${tierFilter(plan, 'tier')}
    GROUP BY k, has, dim`;
}

/**
 * Traces of a `usage_periods` row on its days before day `day`: a row's days are in ascending
 * order (`sumMap` and the merges of `dayMap` sort them), so the number of days before `day`
 * indexes the row's running sums (`c[0]` is 0).
 */
const tracesBefore = (day: number) => `c[arrayCount(d -> d < ${day}, dayMap.day)]`;

/**
 * Whole UTC days `[from, to)` from `usage_periods`, as each value's counts for the buckets from
 * `first` on: every row sums its days between consecutive bucket bounds (two lookups per bucket,
 * zero for the buckets outside its period), and `sumForEach` adds the rows of a value up. One
 * statement over all periods: on 18.16 each `UNION ALL` branch cost ~5 ms more than reading it.
 */
function periodsSql(plan: UsageQueryPlan, days: Interval): { sql: string; first: number } {
  const { grouping } = rollupDimension(plan.groupBy);
  const { first, bounds } = bucketDays(days, plan.grid);
  const firstDay = bounds[0] ?? 0;
  const endDay = bounds.at(-1) ?? 0;
  const counts = bounds
    .slice(1)
    .map((bound, i) => `toUInt64(${tracesBefore(bound)} - ${tracesBefore(bounds[i] ?? bound)})`);
  const sql = `SELECT has, dim, sumForEach(ns) FROM (
      SELECT has_dim AS has, dim_id AS dim, arrayCumSum(dayMap.traces) AS c, [${counts.join(', ')}] AS ns
      FROM usage_periods
      WHERE grouping = '${grouping}' AND ${workspacesSql(plan.workspaceIds)}
        AND period >= ${Math.floor(firstDay / PERIOD_DAYS)}
        AND period <= ${Math.floor((endDay - 1) / PERIOD_DAYS)})
    GROUP BY has, dim`;
  return { sql, first };
}

/**
 * Whether whole days come from `usage_periods` summed into buckets there: for projects, users and
 * API keys in buckets of 30 days or more (ranges over 93 days), where a row's days fold into a
 * few buckets. Daily and weekly buckets and tiers read a daily rollup; workspaces read their
 * period rows as they are (`readsPeriodDays`). Measured on dataset S.
 */
const readsPeriods = (plan: UsageQueryPlan) =>
  !readsTiers(plan) && plan.groupBy !== 'workspace' && plan.grid.stride.days >= 30;

/**
 * Whether whole days come from the `usage_periods` rows as stored, summed into buckets in JS
 * (`periodDaysSql`): for workspaces without tiers, whose rows are few (20 workspaces x 4 periods
 * for a year on dataset M, 7,300 days in all). Reading them took 3-5 ms where grouping the same
 * days of `usage_daily` in ClickHouse took 8-10 ms (it opens every monthly part); per bucket in SQL it cost more (lambdas on 18.16, see
 * `periodsSql`).
 */
const readsPeriodDays = (plan: UsageQueryPlan) => !readsTiers(plan) && plan.groupBy === 'workspace';

/** The `usage_periods` rows of whole UTC days `[from, to)`: value, days and their counts. */
function periodDaysSql(plan: UsageQueryPlan, days: Interval): string {
  const firstDay = Math.floor(days.from / DAY_MS);
  const endDay = Math.ceil(days.to / DAY_MS);
  return `SELECT has_dim, dim_id, dayMap.day, dayMap.traces
    FROM usage_periods
    WHERE grouping = '${plan.groupBy}' AND ${workspacesSql(plan.workspaceIds)}
      AND period >= ${Math.max(0, Math.floor(firstDay / PERIOD_DAYS))}
      AND period <= ${Math.floor((endDay - 1) / PERIOD_DAYS)}`;
}

/** A read started before the data's extent was known: the period rows of whole days `days`. */
export interface EarlyDays {
  days: Interval;
  rows: Promise<string[][]>;
}

/**
 * Starts the read of a plan's whole days that needs no data extent, so that it runs alongside
 * the catalog and extent reads instead of after them (one round trip less on the critical path):
 * the period rows of a workspace plan (`readsPeriodDays`) over all its whole days. Their period
 * numbers come from the range asked for, however far it reaches (no `Date` literal); the days
 * outside the extent-cut range are dropped when they are added (`addPeriodDays`). Null for other
 * plans.
 */
export function readDaysEarly(reader: ClickHouseReader, plan: UsageQueryPlan): EarlyDays | null {
  if (!readsPeriodDays(plan) || plan.grid.stride.days === 0) return null;
  const { rollupDays } = planRange(dataFrom(plan), dataTo(plan), true);
  if (!rollupDays) return null;
  const rows = reader.rows(periodDaysSql(plan, rollupDays));
  // Awaited by `queryUsageMatrix`, unless the catalog or extent read failed first.
  rows.catch(() => undefined);
  return { days: rollupDays, rows };
}

/** Traces of `[from, to)` (partial days, hourly ranges), counted per (bucket, value). */
function rawSql(plan: UsageQueryPlan, interval: Interval): string {
  const { originMs, stepMs } = plan.grid;
  return `SELECT intDiv(start_ms - ${originMs}, ${stepMs}) AS k,
      ${rawDimension(plan.groupBy)}, count() AS n
    FROM traces
    WHERE ${workspacesSql(plan.workspaceIds)}
      AND day >= ${dayLiteral(interval.from)} AND day <= ${dayLiteral(interval.to - 1)}
      AND start_ms >= ${interval.from} AND start_ms < ${interval.to}
      ${tierFilter(plan, 'trace_tier')}
    GROUP BY k, has, dim`;
}

/**
 * The answer to `plan` as a matrix: whole days from `usage_periods` (see `periodsSql`,
 * `readsPeriods`, `readsPeriodDays`) or a daily rollup (`dailyRollupSql`); the partial days at
 * the ends and hourly ranges from `traces`. Periods and the rest are two statements, sent
 * together; the period rows of `early` (`readDaysEarly`) are used instead of reading them again.
 * Reads are cut to `extent` (see `clampToData`); values are placed by the catalog (ids it lacks
 * go with the unlabelled ones), so the matrix is the DuckDB backend's for the same data.
 */
export async function queryUsageMatrix(
  reader: ClickHouseReader,
  plan: UsageQueryPlan,
  catalog: DimensionCatalog,
  extent: Interval | null,
  early: EarlyDays | null = null,
): Promise<UsageMatrix> {
  const clamped = clampToData(plan, extent);
  const hourly = plan.grid.stride.days === 0;
  const { rollupDays, rawIntervals } = planRange(dataFrom(clamped), dataTo(clamped), !hourly);
  const periods = rollupDays && readsPeriods(plan) ? periodsSql(plan, rollupDays) : null;
  const periodDays = rollupDays && readsPeriodDays(plan) ? rollupDays : null;
  const sparse = [
    ...(rollupDays && !periods && !periodDays ? [dailyRollupSql(plan, rollupDays)] : []),
    ...rawIntervals.map((interval) => rawSql(plan, interval)),
  ];
  if (!periods && !periodDays && sparse.length === 0) {
    return emptyMatrix(catalog, plan.grid.count);
  }
  const builder = createMatrixBuilder(catalog, plan.grid.count);
  const valueOf = (has: string | undefined, dim: string | undefined) =>
    builder.valueOfId(has === '1' ? (dim ?? null) : null);
  const [denseRows, dayRows, sparseRows] = await Promise.all([
    periods ? reader.rows(periods.sql) : [],
    periodDays
      ? early && early.days.from <= periodDays.from && early.days.to >= periodDays.to
        ? early.rows
        : reader.rows(periodDaysSql(plan, periodDays))
      : [],
    // One line per value with its buckets and counts as arrays: the value's id is sent and
    // looked up once, not once per bucket.
    sparse.length > 0
      ? reader.rows(
          `SELECT has, dim, groupArray(k), groupArray(n)
           FROM (${sparse.join('\nUNION ALL\n')}) GROUP BY has, dim`,
        )
      : [],
  ]);
  for (const [has, dim, ns = '[]'] of denseRows) {
    const value = valueOf(has, dim);
    tsvNumbers(ns).forEach((n, i) => {
      if (n > 0) builder.add(value, (periods?.first ?? 0) + i, n);
    });
  }
  if (periodDays) addPeriodDays(builder, plan, periodDays, dayRows, valueOf);
  for (const [has, dim, ks = '[]', ns = '[]'] of sparseRows) {
    const value = valueOf(has, dim);
    const counts = tsvNumbers(ns);
    tsvNumbers(ks).forEach((k, i) => builder.add(value, k, counts[i] ?? 0));
  }
  return builder.finish();
}

/**
 * Adds the days of `usage_periods` rows (`periodDaysSql`) that fall in `days` to their buckets;
 * rows of one value not merged yet are added alike.
 */
function addPeriodDays(
  builder: MatrixBuilder,
  plan: UsageQueryPlan,
  days: Interval,
  rows: string[][],
  valueOf: (has: string | undefined, dim: string | undefined) => number,
): void {
  const { originMs, stepMs } = plan.grid;
  const firstDay = Math.floor(days.from / DAY_MS);
  const endDay = Math.ceil(days.to / DAY_MS);
  for (const [has, dim, dayCell = '[]', countCell = '[]'] of rows) {
    const value = valueOf(has, dim);
    const counts = tsvNumbers(countCell);
    tsvNumbers(dayCell).forEach((day, i) => {
      if (day >= firstDay && day < endDay) {
        builder.add(value, Math.floor((day * DAY_MS - originMs) / stepMs), counts[i] ?? 0);
      }
    });
  }
}
