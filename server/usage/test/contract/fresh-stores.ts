import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@clickhouse/client';
import { openDuckDbUsageStore } from '@server/usage/store/duckdb/duckdb-usage-store';
import type { BackendChoice } from '@server/usage/store/open-usage-store';
import { openScaleOutUsageStore } from '@server/usage/store/scale-out/scale-out-usage-store';
import type { UsageStoreWithFixtures } from '@server/usage/store/usage-store';
import { createTestDatabase, dropTestDatabase, TEST_DATABASE_URI } from '../postgres-test-database';

/** The real servers the scale-out tests run on; absent, those suites are skipped by name. */
export const TEST_CLICKHOUSE_URL = process.env.TEST_CLICKHOUSE_URL;
export const HAVE_SCALE_OUT_SERVERS = Boolean(TEST_CLICKHOUSE_URL && TEST_DATABASE_URI);
export const SKIP_REASON = 'TEST_CLICKHOUSE_URL and TEST_DATABASE_URI unset';

export interface FreshStore {
  choice: BackendChoice;
  /** The same store as the server's environment variables. */
  env: Record<string, string>;
  /** Drops what `freshStore` created (call after the backends using it are closed). */
  drop: () => Promise<void>;
}

/**
 * A new, empty store for one test file: a ClickHouse database and a Postgres database of their
 * own on the test servers, or a DuckDB file in a temporary folder.
 */
export async function freshStore(kind: BackendChoice['kind'], label: string): Promise<FreshStore> {
  if (kind === 'duckdb') {
    const dir = await mkdtemp(path.join(tmpdir(), `usage-${label}-`));
    return {
      choice: { kind, file: path.join(dir, 'usage.duckdb') },
      env: { DATA_DIR: dir },
      drop: () => rm(dir, { recursive: true, force: true }),
    };
  }
  if (!TEST_CLICKHOUSE_URL || !TEST_DATABASE_URI) throw new Error(SKIP_REASON);
  const name = `usage_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const databaseUri = await createTestDatabase(name);
  return {
    choice: {
      kind,
      clickhouse: { url: TEST_CLICKHOUSE_URL, database: name },
      databaseUri,
    },
    env: {
      CLICKHOUSE_URL: TEST_CLICKHOUSE_URL,
      CLICKHOUSE_DATABASE: name,
      DATABASE_URI: databaseUri,
    },
    drop: async () => {
      // After a replica is killed -9 mid-ingest the drop has been seen to outlast the client's
      // default 30 s (ClickHouse still holding the dead insert's table): give it longer.
      const clickhouse = createClient({ url: TEST_CLICKHOUSE_URL, request_timeout: 120_000 });
      await clickhouse.command({ query: `DROP DATABASE IF EXISTS ${name}` });
      await clickhouse.close();
      await dropTestDatabase(name);
    },
  };
}

/**
 * Opens (and migrates) a backend as `openStore` does, with the writes tests arrange its catalog
 * with (`fixtures`), which the product's opener does not offer.
 */
export async function openStoreWithFixtures(
  choice: BackendChoice,
): Promise<UsageStoreWithFixtures> {
  if (choice.kind === 'clickhouse') return openScaleOutUsageStore(choice);
  return openDuckDbUsageStore(choice.file);
}
