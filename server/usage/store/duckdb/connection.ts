import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { MIGRATIONS } from './migrations';

/**
 * The usage database: one DuckDB file. Each request borrows its own connection (a DuckDB
 * connection runs one query at a time, and an export streams for as long as the client reads).
 */
export interface DuckDbStore {
  /** Runs `work` on a fresh connection and disconnects afterwards, also on error. */
  withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  /** A connection the caller must `closeSync()` (for streams that outlive one call). */
  connect(): Promise<DuckDBConnection>;
  close(): Promise<void>;
}

export async function openDuckDbStore(file: string): Promise<DuckDbStore> {
  await mkdir(path.dirname(file), { recursive: true });
  const instance = await DuckDBInstance.create(file);
  let closed = false;
  const connect = () => {
    if (closed) throw new Error('The usage store is closed.');
    return instance.connect();
  };
  const store: DuckDbStore = {
    connect,
    async withConnection(work) {
      const connection = await connect();
      try {
        return await work(connection);
      } finally {
        connection.closeSync();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      instance.closeSync();
    },
  };
  try {
    await store.withConnection(migrate);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

async function migrate(connection: DuckDBConnection): Promise<void> {
  await connection.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)`);
  const applied = await connection.runAndReadAll('SELECT version FROM schema_migrations');
  const done = new Set(applied.getRowsJS().map(([version]) => Number(version)));
  for (const migration of MIGRATIONS) {
    if (done.has(migration.version)) continue;
    await connection.run('BEGIN TRANSACTION');
    try {
      await connection.run(migration.sql);
      await connection.run(
        'INSERT INTO schema_migrations VALUES ($1, $2, current_timestamp::TIMESTAMP)',
        [migration.version, migration.name],
      );
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK');
      throw error;
    }
  }
}
