import type { GroupBy } from './usage-schema';

/** `2026-01-05T00:00:00.000Z` -> `20260105T000000Z`: ISO 8601 basic format, safe in file names. */
function compactUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** File name of a usage export: it says the range and the grouping, so files never collide. */
export function usageExportFilename(startMs: number, endMs: number, groupBy: GroupBy): string {
  return `granular-usage_${compactUtc(startMs)}_${compactUtc(endMs)}_${groupBy}.csv`;
}
