import { describe, expect, it } from 'vitest';
import type { GroupBy } from './usage-schema';
import { usageExportFilename } from './export-filename';

describe('usageExportFilename', () => {
  it.each<[string, string, GroupBy, string]>([
    [
      '2026-01-05T00:00:00Z',
      '2026-02-05T00:00:00Z',
      'workspace',
      'granular-usage_20260105T000000Z_20260205T000000Z_workspace.csv',
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
