import path from 'node:path';
import type { Config } from '@server/config';
import { openDuckDbBackend } from './duckdb/duckdb-backend';
import type { UsageBackend } from './usage-backend';

/** Where the usage data lives. */
export type BackendChoice = { kind: 'duckdb'; file: string };

/** The DuckDB file a data directory holds (the default backend). */
export const duckDbFile = (dataDir: string) => path.join(dataDir, 'usage.duckdb');

/** The backend the configuration names: the embedded DuckDB file under DATA_DIR. */
export function backendChoice(config: Config): BackendChoice {
  return { kind: 'duckdb', file: duckDbFile(config.DATA_DIR) };
}

/** Opens (and migrates) a backend. */
export async function openBackend(choice: BackendChoice): Promise<UsageBackend> {
  return openDuckDbBackend(choice.file);
}

export const openUsageBackend = (config: Config) => openBackend(backendChoice(config));
