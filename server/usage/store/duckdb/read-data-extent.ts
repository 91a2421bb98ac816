import type { DuckDBConnection } from '@duckdb/node-api';
import type { TraceGroupBy } from '@contracts/usage/usage-schema';
import type { Interval } from '@server/usage/model/time-segments';
import { PERIOD_DAYS } from './cumulative-rollup';

const PERIOD_MS = PERIOD_DAYS * 86_400_000;

/**
 * The time span that can hold traces: the periods of the cumulative rollup that have rows
 * (ingest and seeding keep it in step with `traces`), widened to whole periods. A few index-less
 * integer reads of a small table; null when there is no data at all.
 */
export async function readDataExtent(
  connection: DuckDBConnection,
  groupBy: TraceGroupBy,
): Promise<Interval | null> {
  // Every grouping (trace_tier too) counts every trace.
  const reader = await connection.runAndReadAll(
    'SELECT min(period), max(period) FROM usage_cumulative WHERE grouping = $1',
    [groupBy],
  );
  const [first, last] = reader.getRowsJS()[0] ?? [];
  if (typeof first !== 'number' || typeof last !== 'number') return null;
  return { from: first * PERIOD_MS, to: (last + 1) * PERIOD_MS };
}
