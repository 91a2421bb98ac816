import { describe, expect, it } from 'vitest';
import type { ConsoleConfig } from '@contracts/console-config';
import { describeUsageSource, isDemoData } from './usage-source';

const config = (usage: Partial<ConsoleConfig['usage']>): ConsoleConfig => ({
  usage: {
    source: 'embedded',
    upstream: null,
    deploymentMode: 'cloud',
    seed: 'demo',
    backend: 'duckdb',
    ...usage,
  },
  deployment: { source: 'embedded', upstream: null, tracesToEmbeddedUsage: false },
});

describe('describeUsageSource', () => {
  it.each([
    [{}, 'embedded DuckDB, demo data', true],
    [{ seed: 'none' as const }, 'embedded DuckDB', false],
    [{ backend: 'clickhouse' as const }, 'ClickHouse, demo data', true],
    [{ backend: 'clickhouse' as const, seed: 'none' as const }, 'ClickHouse', false],
    [
      {
        source: 'langsmith' as const,
        backend: 'langsmith' as const,
        upstream: 'https://ls.example',
      },
      'LangSmith (https://ls.example)',
      false,
    ],
  ])('%o reads "%s" (demo: %s)', (usage, label, demo) => {
    expect(describeUsageSource(config(usage))).toBe(label);
    expect(isDemoData(config(usage))).toBe(demo);
  });
});
