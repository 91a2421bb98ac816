import pg from 'pg';

/** How long a new connection may take before the request that wanted it fails. */
const CONNECT_TIMEOUT_MS = 3_000;

/**
 * A pool whose connections may die under it (a Postgres restart, a failover, an idle timeout)
 * without ending the process: each death is one warning line, the dead connection leaves the
 * pool, and the next query opens a new one. A connection that is checked out (a held thread
 * lock, a transaction) reports on itself, not through the pool, so each gets its own listener.
 */
export function openPool(label: string, config: pg.PoolConfig): pg.Pool {
  // A Postgres that does not answer is an outage to report within seconds, not a hang.
  const pool = new pg.Pool({ connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...config });
  // Idle connections report through the pool too: the connection's own listener has logged it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', (error) => console.warn(`${label}: ${error.message}`));
  });
  return pool;
}

/** Runs `work` in one transaction on one pooled connection: committed if it resolves. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    return await inClientTransaction(client, () => work(client));
  } finally {
    client.release();
  }
}

/** Runs `work` in one transaction on a connection the caller holds: committed if it resolves. */
export async function inClientTransaction<T>(
  client: pg.PoolClient,
  work: () => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Runs `work` holding the session advisory lock `key` on a connection of its own: replicas
 * starting together run it one at a time, and a later one finds the work done. The lock dies with
 * the session if the process does.
 */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  key: number,
  work: () => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
    client.release();
  }
}

/** One numbered schema change; `name` is kept when the ledger has a column for it. */
export interface Migration {
  version: number;
  name?: string;
  sql: string;
}

/** Where a schema records the versions it has applied: `schema.table`. */
export interface MigrationLedger {
  schema: string;
  table: string;
  /** Whether the ledger keeps each migration's name beside its version. */
  named: boolean;
}

/**
 * Applies the migrations the ledger does not list yet, in order, each in its own transaction with
 * the row that records it. Not safe to run twice at once: callers hold `withAdvisoryLock`.
 */
export async function migrate(
  pool: pg.Pool,
  ledger: MigrationLedger,
  migrations: readonly Migration[],
): Promise<void> {
  const table = `${ledger.schema}.${ledger.table}`;
  const client = await pool.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${ledger.schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} (
      version integer PRIMARY KEY,${ledger.named ? ' name text NOT NULL,' : ''}
      applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = await client.query<{ version: number }>(`SELECT version FROM ${table}`);
    const done = new Set(applied.rows.map((row) => row.version));
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await inClientTransaction(client, async () => {
        await client.query(migration.sql);
        await (ledger.named
          ? client.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [
              migration.version,
              migration.name ?? '',
            ])
          : client.query(`INSERT INTO ${table} (version) VALUES ($1)`, [migration.version]));
      });
    }
  } finally {
    client.release();
  }
}
