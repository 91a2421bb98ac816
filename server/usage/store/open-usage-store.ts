import path from 'node:path';
import type { Config } from '@server/config';
import { openScaleOutUsageStore, type ScaleOutOptions } from './scale-out/scale-out-usage-store';
import { openDuckDbUsageStore } from './duckdb/duckdb-usage-store';
import type { UsageStore } from './usage-store';

/** Where the usage data lives. */
export type BackendChoice =
  { kind: 'duckdb'; file: string } | ({ kind: 'clickhouse' } & ScaleOutOptions);

/** The DuckDB file a data directory holds (the default backend). */
export const duckDbFile = (dataDir: string) => path.join(dataDir, 'usage.duckdb');

/**
 * The backend the configuration names: ClickHouse + Postgres when CLICKHOUSE_URL is set (the
 * config requires DATABASE_URI with it), else the embedded DuckDB file under DATA_DIR.
 */
export function backendChoice(config: Config): BackendChoice {
  if (config.CLICKHOUSE_URL && config.DATABASE_URI) {
    return {
      kind: 'clickhouse',
      clickhouse: {
        url: config.CLICKHOUSE_URL,
        username: config.CLICKHOUSE_USER,
        password: config.CLICKHOUSE_PASSWORD,
        database: config.CLICKHOUSE_DATABASE ?? 'usage',
      },
      databaseUri: config.DATABASE_URI,
    };
  }
  return { kind: 'duckdb', file: duckDbFile(config.DATA_DIR) };
}

/** Opens (and migrates) a backend. */
export async function openStore(choice: BackendChoice): Promise<UsageStore> {
  if (choice.kind === 'clickhouse') return openScaleOutUsageStore(choice);
  return openDuckDbUsageStore(choice.file);
}

export const openUsageStore = (config: Config) => openStore(backendChoice(config));
