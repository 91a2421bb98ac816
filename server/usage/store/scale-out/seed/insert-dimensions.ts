import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { PoolClient } from 'pg';
import type { CatalogRows } from '@server/usage/store/duckdb/seed/export-seed';
import { utf8 } from '../dimension-writes';

/** Tables the seed fills or wipes, children first. */
export const SEEDED_TABLES = [
  'deployment_usage',
  'deployment_replicas',
  'auth_key_owners',
  'auth_key_workspaces',
  'auth_keys',
  'api_keys',
  'users',
  'projects',
  'workspaces',
  'billed_runs',
  // Counted from the traces a redone seed wipes: recounted from ClickHouse on the next claim.
  'limit_counters',
  'seed_runs',
] as const;

/** Column types of each catalog table, in the order the exported rows hold them. */
const TYPES: Record<keyof CatalogRows, string[]> = {
  workspaces: ['uuid', 'bytea', 'boolean', 'timestamptz'],
  projects: ['uuid', 'uuid', 'bytea', 'text'],
  users: ['uuid', 'bytea'],
  api_keys: ['uuid', 'uuid', 'bytea', 'text'],
  auth_keys: ['text', 'text', 'text[]'],
  auth_key_workspaces: ['text', 'uuid', 'text', 'boolean'],
  auth_key_owners: ['text', 'uuid', 'uuid'],
};

/** Writes the exported catalog tables, one statement per table (unnest of column arrays). */
export async function insertCatalog(client: PoolClient, catalog: CatalogRows): Promise<void> {
  for (const [table, types] of Object.entries(TYPES) as [keyof CatalogRows, string[]][]) {
    const rows = catalog[table];
    if (rows.length === 0) continue;
    if (types.includes('text[]')) {
      // A list column cannot be unnested: the few credential rows go one by one.
      for (const row of rows) {
        await client.query(
          `INSERT INTO usage.${table} VALUES (${types.map((type, i) => `$${i + 1}::${type}`).join(', ')})`,
          row,
        );
      }
      continue;
    }
    const columns = types.map((type, i) =>
      rows.map((row) => {
        const cell = row[i] ?? null;
        return type === 'bytea' && typeof cell === 'string' ? utf8(cell) : cell;
      }),
    );
    const select = types.map((type, i) =>
      // Workspaces hold UTC wall-clock times (timestamp without zone), as DuckDB does.
      type === 'timestamptz' ? `(c${i} AT TIME ZONE 'UTC')` : `c${i}`,
    );
    await client.query(
      `INSERT INTO usage.${table} SELECT ${select.join(', ')}
       FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})
         AS t (${types.map((_, i) => `c${i}`).join(', ')})`,
      columns,
    );
  }
}

const IDS_PER_STATEMENT = 50_000;

/** Records every seeded run id as billed, so a re-sent seeded run counts once (as in DuckDB). */
export async function insertBilledRunIds(client: PoolClient, file: string): Promise<void> {
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await client.query(
      'INSERT INTO usage.billed_runs (run_id) SELECT unnest($1::uuid[]) ON CONFLICT DO NOTHING',
      [batch],
    );
    batch = [];
  };
  // A seed that dies is redone from scratch (see `seedClickHouse`): no need to flush each commit.
  await client.query('SET synchronous_commit = off');
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (line === '') continue;
    batch.push(line);
    if (batch.length >= IDS_PER_STATEMENT) await flush();
  }
  await flush();
  await client.query('RESET synchronous_commit');
}

const DEPLOYMENT_ROWS_PER_STATEMENT = 20_000;

/** Loads the exported deployment history (see `ExportedSeed.deploymentsCsv`). */
export async function insertDeploymentHistory(client: PoolClient, file: string): Promise<void> {
  let rows: string[][] = [];
  const flush = async () => {
    if (rows.length === 0) return;
    const column = (i: number) => rows.map((row) => row[i]);
    await client.query(
      `INSERT INTO usage.deployment_usage
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::bigint[], $5::bigint[],
         $6::bigint[])`,
      [0, 1, 2, 3, 4, 5].map(column),
    );
    rows = [];
  };
  for await (const line of createInterface({ input: createReadStream(file) })) {
    // Only ids and integers: no quoting to undo.
    if (line !== '') rows.push(line.split(','));
    if (rows.length >= DEPLOYMENT_ROWS_PER_STATEMENT) await flush();
  }
  await flush();
}
