import type { DuckDBConnection } from '@duckdb/node-api';
import { buildDimensions } from '@server/usage/seed/build-dimensions';
import { insertDimensions } from './insert-dimensions';
import { insertRows } from './insert-rows';
import { insertTraces, rebuildDailyRollups } from './insert-traces';
import { dayCount, tracesOnDay, type SeedProfile } from '@server/usage/seed/seed-profiles';
import type { SeedResult } from '@server/usage/store/usage-backend';
import type { DuckDbStore } from '../duckdb-store';

/** About two million generated rows per INSERT: big enough to be efficient, small enough for RAM. */
const ROWS_PER_BATCH = 2_000_000;
const DAY_MS = 86_400_000;
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
    await insertDimensions(
      connection,
      buildDimensions(profile),
      new Date(profile.fromMs).toISOString(),
    );
    const days = dayCount(profile);
    await insertRows(
      connection,
      'seed_days',
      ['INTEGER', 'DATE', 'INTEGER'],
      Array.from({ length: days }, (_, d) => [
        d,
        new Date(profile.fromMs + d * DAY_MS).toISOString().slice(0, 10),
        tracesOnDay(profile, d),
      ]),
    );
    const endIso = new Date(profile.toMs).toISOString();
    const daysPerBatch = Math.max(1, Math.floor(ROWS_PER_BATCH / profile.baseTracesPerDay));
    for (let day = 0; day < days; day += daysPerBatch) {
      await insertTraces(connection, day, day + daysPerBatch, profile.seed, endIso);
      onProgress?.(`traces: day ${Math.min(day + daysPerBatch, days)}/${days}`);
    }
    onProgress?.('building daily rollups');
    await rebuildDailyRollups(connection);
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
