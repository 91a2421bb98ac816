import type { DuckDBConnection } from '@duckdb/node-api';
import { buildDimensions } from '@server/usage/seed/build-dimensions';
import { dayCount, tracesOnDay, type SeedProfile } from '@server/usage/seed/seed-profiles';
import { insertDeploymentHistory } from './insert-deployment-history';
import { insertDimensions } from './insert-dimensions';
import { insertRows } from './insert-rows';
import { insertTraces } from './insert-traces';
import { DAY_MS } from '@contracts/usage/time';

/** About two million generated rows per INSERT: big enough to be efficient, small enough for RAM. */
const ROWS_PER_BATCH = 2_000_000;

/**
 * Writes a profile's dimension tables, demo credentials, traces and deployment history into
 * empty tables of `connection` (the rollups are left to the caller). The ClickHouse backend runs it in an
 * in-memory DuckDB and copies the traces out, so both backends hold the same traces.
 */
export async function generateSeed(
  connection: DuckDBConnection,
  profile: SeedProfile,
  onProgress?: (message: string) => void,
): Promise<void> {
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
  onProgress?.('deployment history');
  // From the staging tables above (seed_projects, seed_ws), on this connection.
  await insertDeploymentHistory(
    connection,
    new Date(profile.fromMs).toISOString(),
    endIso,
    profile.seed,
  );
}
