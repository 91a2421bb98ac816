import { describe, expect, it } from 'vitest';
import type { GroupBy, TraceGroupBy, UsageKind } from './usage-schema';
import { usageExportFilename } from './export-filename';

describe('usageExportFilename', () => {
  it.each<[string, string, GroupBy, string]>([
    // Whole days: the name ends on the range's last day (Feb 4), not the exclusive end.
    [
      '2026-01-05T00:00:00Z',
      '2026-02-05T00:00:00Z',
      'workspace',
      'granular-usage_2026-01-05_2026-02-04_workspace.csv',
    ],
    [
      '2026-03-01T00:00:00Z',
      '2026-03-02T00:00:00Z',
      'user',
      'granular-usage_2026-03-01_2026-03-01_user.csv',
    ],
    [
      '2026-03-01T10:30:15.250Z',
      '2026-03-02T00:00:00Z',
      'api_key',
      'granular-usage_20260301T103015Z_20260302T000000Z_api_key.csv',
    ],
  ])('%s .. %s by %s', (start, end, groupBy, expected) => {
    expect(usageExportFilename(Date.parse(start), Date.parse(end), groupBy)).toBe(expected);
  });
});

describe('usageExportFilename by domain', () => {
  it.each<[UsageKind, TraceGroupBy, string]>([
    ['traces', 'trace_tier', 'granular-usage_2026-03-01_2026-03-01_trace_tier.csv'],
    [
      'langsmith_deployments',
      'project',
      'granular-usage_deployments_2026-03-01_2026-03-01_project.csv',
    ],
  ])('%s by %s', (kind, groupBy, expected) => {
    const [start, end] = [Date.parse('2026-03-01T00:00:00Z'), Date.parse('2026-03-02T00:00:00Z')];
    expect(usageExportFilename(start, end, groupBy, kind)).toBe(expected);
  });
});
