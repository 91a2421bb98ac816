import { DuckDBInstance } from '@duckdb/node-api';
import path from 'node:path';
import type { SeedProfile } from '@server/usage/seed/seed-profiles';
import { MIGRATIONS } from '../migrations';
import { generateSeed } from './generate-seed';

/** Rows of the catalog tables, every value as text (or a text list), in table column order. */
export type CatalogRows = Record<
  (typeof CATALOG_TABLES)[number]['table'],
  (string | string[] | null)[][]
>;

/** A generated dataset on disk, for loading into another engine. */
export interface ExportedSeed {
  /**
   * The traces as CSV, NULL as `\N`: run_id, workspace_id, project_id, user_id, api_key_id,
   * start_ms (epoch ms), day (UTC date), trace_tier (1 long-lived, 0 short-lived), sorted by
   * workspace and day.
   */
  tracesCsv: string;
  /**
   * The deployment history (`deployment_usage`) as CSV: workspace_id, project_id, metered_ms
   * (epoch ms), agent_runs, nodes_executed, uptime_ms.
   */
  deploymentsCsv: string;
  /** Every run id, one a line. */
  runIdsFile: string;
  traces: number;
  catalog: CatalogRows;
}

const CATALOG_TABLES = [
  {
    table: 'workspaces',
    select: `id::VARCHAR, display_name, is_personal::VARCHAR,
      strftime(created_at, '%Y-%m-%dT%H:%M:%S.%g') || 'Z'`,
  },
  { table: 'projects', select: 'id::VARCHAR, workspace_id::VARCHAR, name, trace_tier' },
  { table: 'users', select: 'id::VARCHAR, email' },
  { table: 'api_keys', select: 'id::VARCHAR, workspace_id::VARCHAR, short_key, description' },
  { table: 'auth_keys', select: 'key_hash, label, permissions' },
  {
    table: 'auth_key_workspaces',
    select: 'key_hash, workspace_id::VARCHAR, role_name, read_only::VARCHAR',
  },
  { table: 'auth_key_owners', select: 'key_hash, user_id::VARCHAR, api_key_id::VARCHAR' },
] as const;

/**
 * Generates `profile` exactly as the DuckDB backend seeds it (same SQL, same hashes: the same
 * trace ids, times and dimensions), in a scratch DuckDB file in `dir`, and writes it out for
 * another backend to load.
 */
export async function exportSeed(
  profile: SeedProfile,
  dir: string,
  onProgress?: (message: string) => void,
): Promise<ExportedSeed> {
  const instance = await DuckDBInstance.create(path.join(dir, 'seed.duckdb'));
  const connection = await instance.connect();
  try {
    for (const migration of MIGRATIONS) await connection.run(migration.sql);
    await generateSeed(connection, profile, onProgress);
    const tracesCsv = path.join(dir, 'traces.csv');
    const runIdsFile = path.join(dir, 'run-ids.txt');
    await connection.run(`COPY (
      SELECT run_id, workspace_id, project_id, user_id, api_key_id,
        epoch_ms(start_time) AS start_ms, start_time::DATE AS day,
        CASE trace_tier WHEN 'longlived' THEN 1 ELSE 0 END AS trace_tier
      FROM traces ORDER BY workspace_id, day
    ) TO '${tracesCsv}' (FORMAT CSV, HEADER false, NULLSTR '\\N')`);
    const deploymentsCsv = path.join(dir, 'deployments.csv');
    await connection.run(`COPY (
      SELECT workspace_id, project_id, epoch_ms(metered_at), agent_runs, nodes_executed, uptime_ms
      FROM deployment_usage
    ) TO '${deploymentsCsv}' (FORMAT CSV, HEADER false)`);
    await connection.run(
      // Sorted: Postgres appends them to the primary key's b-tree instead of inserting at random.
      `COPY (SELECT run_id FROM traces ORDER BY run_id) TO '${runIdsFile}' (FORMAT CSV, HEADER false)`,
    );
    const count = await connection.runAndReadAll('SELECT count(*)::DOUBLE FROM traces');
    const catalog = {} as CatalogRows;
    for (const { table, select } of CATALOG_TABLES) {
      const reader = await connection.runAndReadAll(`SELECT ${select} FROM ${table}`);
      catalog[table] = reader
        .getRowsJS()
        .map((row) =>
          row.map((cell) =>
            Array.isArray(cell) ? cell.map(String) : cell === null ? null : String(cell),
          ),
        );
    }
    return {
      tracesCsv,
      deploymentsCsv,
      runIdsFile,
      traces: Number(count.getRowsJS()[0]?.[0] ?? 0),
      catalog,
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
