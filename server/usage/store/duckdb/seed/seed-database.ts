import type { DuckDBConnection } from '@duckdb/node-api';
import type { SeedProfile } from '@server/usage/seed/seed-profiles';
import type { SeedResult } from '@server/usage/store/usage-store';
import type { DuckDbStore } from '../connection';
import { generateSeed } from './generate-seed';
import { insertDemoBilling } from './insert-demo-billing';
import { rebuildDailyRollups } from './insert-traces';

const TABLES = [
  'traces',
  'usage_daily',
  'usage_cumulative',
  'workspaces',
  'projects',
  'users',
  'api_keys',
  'auth_keys',
  'auth_key_workspaces',
  'auth_key_owners',
  'seed_runs',
  'deployment_usage',
  'deployment_replicas',
];

/**
 * Loads `profile` into the store when it holds no data yet (or only an interrupted seed, which
 * is wiped first). A store that already has data is left alone.
 */
export async function seedIfEmpty(
  store: DuckDbStore,
  profile: SeedProfile,
  onProgress?: (message: string) => void,
): Promise<SeedResult> {
  const started = performance.now();
  return store.withConnection(async (connection) => {
    if (!(await canSeed(connection))) return { seeded: false, traces: 0, ms: 0 };
    for (const table of TABLES) await connection.run(`DELETE FROM ${table}`);
    await connection.run(
      'INSERT INTO seed_runs VALUES ($1, current_timestamp::TIMESTAMP, NULL, NULL)',
      [profile.name],
    );
    await generateSeed(connection, profile, onProgress);
    onProgress?.('building daily rollups');
    await rebuildDailyRollups(connection);
    onProgress?.('upgrading traces by feedback');
    await insertDemoBilling(connection, profile.toMs);
    const count = await connection.runAndReadAll('SELECT count(*)::DOUBLE FROM traces');
    const traces = Number(count.getRowsJS()[0]?.[0] ?? 0);
    await connection.run(
      'UPDATE seed_runs SET completed_at = current_timestamp::TIMESTAMP, traces = $1',
      [traces],
    );
    await connection.run('CHECKPOINT');
    return { seeded: true, traces, ms: Math.round(performance.now() - started) };
  });
}

/** Seed into an empty store, or over a seed that never completed; never over real data. */
async function canSeed(connection: DuckDBConnection): Promise<boolean> {
  const reader = await connection.runAndReadAll(`SELECT
    (SELECT count(*) FROM seed_runs WHERE completed_at IS NOT NULL)::DOUBLE,
    (SELECT count(*) FROM seed_runs)::DOUBLE,
    (SELECT count(*) FROM traces)::DOUBLE + (SELECT count(*) FROM workspaces)::DOUBLE`);
  const [completed = 0, runs = 0, rows = 0] = (reader.getRowsJS()[0] ?? []).map(Number);
  if (completed > 0) return false;
  return runs > 0 || rows === 0;
}
