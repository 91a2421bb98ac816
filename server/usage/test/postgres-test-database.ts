import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { migratePostgres } from '../store/scale-out/postgres-migrations';

/** The Postgres server the usage backend suites run on; unset, they are skipped by name. */
export const TEST_DATABASE_URI = process.env.TEST_DATABASE_URI;

async function onServer(statement: string): Promise<void> {
  if (!TEST_DATABASE_URI) throw new Error('TEST_DATABASE_URI unset');
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URI });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** Creates database `name` on the test server and returns its URI. */
export async function createTestDatabase(name: string): Promise<string> {
  await onServer(`CREATE DATABASE ${name}`);
  const uri = new URL(TEST_DATABASE_URI ?? '');
  uri.pathname = `/${name}`;
  return uri.toString();
}

/** Drops database `name` from the test server, ending the connections still open on it. */
export function dropTestDatabase(name: string): Promise<void> {
  return onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

export interface PostgresTestDatabase {
  /** The suite's pool on its database. */
  readonly pool: pg.Pool;
  /** Another pool on the same database (as another replica has), ended by the caller. */
  openPool: (max?: number) => pg.Pool;
}

/**
 * A migrated database of its own on TEST_DATABASE_URI for the enclosing suite (one skipped
 * without it): created before the first test, dropped after the last.
 */
export function usePostgresTestDatabase(label: string): PostgresTestDatabase {
  const name = `usage_${label}_${randomBytes(4).toString('hex')}`;
  let uri: string | undefined;
  let pool: pg.Pool | undefined;
  const openPool = (max = 10) => {
    if (!uri) throw new Error(`The ${name} test database is not created`);
    const opened = new pg.Pool({ connectionString: uri, max });
    // The final DROP … WITH (FORCE) may end idle connections of a pool while it closes.
    opened.on('error', (error: Error & { code?: string }) => {
      if (error.code !== '57P01') throw error;
    });
    return opened;
  };
  beforeAll(async () => {
    uri = await createTestDatabase(name);
    pool = openPool();
    await migratePostgres(pool);
  });
  afterAll(async () => {
    await pool?.end();
    if (uri) await dropTestDatabase(name);
  });
  return {
    get pool() {
      if (!pool) throw new Error(`The ${name} test database is not created`);
      return pool;
    },
    openPool,
  };
}
