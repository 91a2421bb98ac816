import { DAY_MS } from '@contracts/usage/time';
import type { Interval } from '@server/usage/model/time-segments';
import type { ClickHouseReader } from './clickhouse/reader';

/**
 * The days that hold traces, as `[first day, last day + 1)`; null when there are none. Every
 * grouping counts every trace once, on its day, so the smallest one (workspace) answers for all,
 * and its `usage_periods` rows hold their days in ascending order: the first and last day of
 * ~80 rows (dataset M) instead of the days of 7,300 `usage_daily` rows in 13 monthly parts
 * (1.6-1.9 ms against 2.9-3.1 ms over HTTP).
 */
export async function readDataExtent(reader: ClickHouseReader): Promise<Interval | null> {
  const [row] = await reader.rows(
    `SELECT count(), min(dayMap.day[1]), max(dayMap.day[-1]) FROM usage_periods
     WHERE grouping = 'workspace'`,
  );
  if (!row || Number(row[0]) === 0) return null;
  return { from: Number(row[1]) * DAY_MS, to: (Number(row[2]) + 1) * DAY_MS };
}
