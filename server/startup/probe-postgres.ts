import pg from 'pg';

/** Connects to Postgres with the URI's credentials and runs one trivial query. */
export async function probePostgres(uri: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: uri, connectionTimeoutMillis: timeoutMs });
  // A connection dropped after a failed probe is reported through the rejected promise.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
