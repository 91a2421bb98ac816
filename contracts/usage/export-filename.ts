import type { TraceGroupBy, UsageKind } from './usage-schema';
import { DAY_MS } from './time';

/** `2026-01-05T00:00:00.000Z` -> `20260105T000000Z`: ISO 8601 basic format, safe in file names. */
function compactUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * File name of a usage export: it says the range and the grouping, so files never collide. A
 * range of whole UTC days names its first and last day (both included, as the screen shows
 * them: `2026-02-01_2026-02-07`), never the exclusive end; other ranges name both instants.
 * A deployments export says so (`granular-usage_deployments_…`), an LLM usage one too
 * (`granular-usage_llm_…`).
 */
export function usageExportFilename(
  startMs: number,
  endMs: number,
  groupBy: TraceGroupBy | 'model',
  kind: UsageKind = 'traces',
): string {
  const wholeDays = startMs % DAY_MS === 0 && endMs % DAY_MS === 0 && endMs > startMs;
  const range = wholeDays
    ? `${utcDay(startMs)}_${utcDay(endMs - DAY_MS)}`
    : `${compactUtc(startMs)}_${compactUtc(endMs)}`;
  const domain = { traces: '', langsmith_deployments: '_deployments', llm_usage: '_llm' }[kind];
  return `granular-usage${domain}_${range}_${groupBy}.csv`;
}
