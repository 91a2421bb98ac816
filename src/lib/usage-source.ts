import type { ConsoleConfig } from '@contracts/console-config';

/** Whether the console shows the embedded demo dataset (seeded names, demo keys). */
export const isDemoData = (config: ConsoleConfig) =>
  config.usage.source === 'embedded' && config.usage.seed === 'demo';

/**
 * Which backend serves the usage data, in the words of the README's set-ups: the embedded
 * DuckDB file, the scale-out ClickHouse, or a LangSmith read through the console server.
 */
export function describeUsageSource(config: ConsoleConfig): string {
  const demo = isDemoData(config) ? ', demo data' : '';
  switch (config.usage.backend) {
    case 'langsmith':
      return `LangSmith (${config.usage.upstream ?? 'remote'})`;
    case 'clickhouse':
      return `ClickHouse${demo}`;
    case 'duckdb':
      return `embedded DuckDB${demo}`;
  }
}
