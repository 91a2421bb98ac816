import path from 'node:path';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import pg from 'pg';

/** The Postgres server the backend suites use (`npm test` starts one); unset: SQLite only. */
export const TEST_DATABASE_URI = process.env.TEST_DATABASE_URI || undefined;

/**
 * Whether the test deployments of this vitest project run on Postgres: the `deployment-postgres`
 * project sets DEPLOYMENT_TEST_BACKEND (vite.config.ts); the `server` project stays on SQLite.
 */
const onPostgres = () =>
  process.env.DEPLOYMENT_TEST_BACKEND === 'postgres' && TEST_DATABASE_URI !== undefined;

/** One database per data directory: files (and restarts within one) never share tables. */
const databaseName = (dataDir: string) =>
  `deployment_test_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URI });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The URI of the test database for `dataDir` (created when new), or `undefined` without
 * `TEST_DATABASE_URI` (or outside the `deployment-postgres` project).
 */
export async function testDatabaseFor(dataDir: string): Promise<string | undefined> {
  if (!onPostgres() || !TEST_DATABASE_URI) return undefined;
  const name = databaseName(dataDir);
  await onServer(async (client) => {
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } catch (error) {
      // 42P04 duplicate_database: a restart of the same deployment.
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
  });
  const uri = new URL(TEST_DATABASE_URI);
  uri.pathname = `/${name}`;
  return uri.toString();
}

export async function dropTestDatabase(dataDir: string): Promise<void> {
  if (!onPostgres()) return;
  await onServer((client) =>
    client.query(`DROP DATABASE IF EXISTS ${databaseName(dataDir)} WITH (FORCE)`),
  );
}

/** Runs one statement on the deployment's own database: its Postgres test database, else SQLite. */
async function onDeploymentDatabase<T>(
  dataDir: string,
  postgres: (client: pg.Client) => Promise<T>,
  sqlite: (db: Database.Database) => T,
): Promise<T> {
  const uri = await testDatabaseFor(dataDir);
  if (!uri) {
    const db = new Database(path.join(dataDir, 'deployment.sqlite'));
    try {
      return sqlite(db);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: uri });
  await client.connect();
  try {
    return await postgres(client);
  } finally {
    await client.end();
  }
}

/** What a crash leaves behind: the run's record still says `running`. */
export async function markRunRunning(dataDir: string, runId: string): Promise<void> {
  await onDeploymentDatabase<unknown>(
    dataDir,
    (client) =>
      client.query(`UPDATE deployment.runs SET status = 'running' WHERE run_id = $1`, [runId]),
    (db) => db.prepare(`UPDATE runs SET status = 'running' WHERE run_id = ?`).run(runId),
  );
}

/** How many rows the deployment's `threads` or `runs` table holds. */
export function countRows(dataDir: string, table: 'threads' | 'runs'): Promise<number> {
  return onDeploymentDatabase(
    dataDir,
    async (client) => {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM deployment.${table}`,
      );
      return Number(rows[0]?.n ?? 0);
    },
    (db) => db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0,
  );
}
