import type { DuckDBConnection } from '@duckdb/node-api';
import type { GroupBy } from '@contracts/usage/usage-schema';
import { PERIOD_DAYS } from '../store/cumulative-rollup';
import type { UsageQueryPlan } from './usage-facts-sql';
import type { Interval } from './time-segments';

const PERIOD_MS = PERIOD_DAYS * 86_400_000;

/**
 * The time span that can hold traces: the periods of the cumulative rollup that have rows
 * (ingest and seeding keep it in step with `traces`), widened to whole periods. A few index-less
 * integer reads of a small table; null when there is no data at all.
 */
export async function readDataExtent(
  connection: DuckDBConnection,
  groupBy: GroupBy,
): Promise<Interval | null> {
  const reader = await connection.runAndReadAll(
    'SELECT min(period), max(period) FROM usage_cumulative WHERE grouping = $1',
    [groupBy],
  );
  const [first, last] = reader.getRowsJS()[0] ?? [];
  if (typeof first !== 'number' || typeof last !== 'number') return null;
  return { from: first * PERIOD_MS, to: (last + 1) * PERIOD_MS };
}

/**
 * The plan with the part of its range that DuckDB reads cut to `extent`: the buckets (and so the
 * answer) stay those of the range asked for, but a range ending in year 9999 reads the few
 * periods that exist instead of building a statement over 22,000 empty ones.
 */
export function clampToData(plan: UsageQueryPlan, extent: Interval | null): UsageQueryPlan {
  if (!extent) return { ...plan, ceilingMs: plan.grid.startMs };
  return {
    ...plan,
    floorMs: Math.max(plan.floorMs ?? extent.from, extent.from),
    ceilingMs: Math.min(plan.ceilingMs ?? extent.to, extent.to),
  };
}
