import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@server/config';
import { seedIfEmpty } from '../seed/seed-database';
import { benchProfile, demoProfile, type SeedProfile } from '../seed/seed-profiles';
import { openUsageStore } from '../store/usage-store';

const USAGE = `Usage: npm run seed -- --scale demo|S|M|L [--data-dir DIR] [--force]

  demo  the dataset the server loads on first start (DATA_DIR/usage.duckdb)
  S|M|L 1 year, 20 workspaces, 500 projects, 5,000 users, 2,000 keys and
        1M / 10M / 100M traces (DATA_DIR/bench-<scale>/usage.duckdb)
  --force  delete the database file first (otherwise an existing dataset is kept)`;

/** The file a scale lives in, unless --data-dir says otherwise. */
export function datasetFile(dataDir: string, scale: string, override?: string): string {
  if (override) return path.join(path.resolve(override), 'usage.duckdb');
  return path.join(dataDir, scale === 'demo' ? '' : `bench-${scale}`, 'usage.duckdb');
}

export function profileFor(scale: string): SeedProfile {
  if (scale === 'demo') return demoProfile(Date.now());
  if (scale === 'S' || scale === 'M' || scale === 'L') return benchProfile(scale);
  throw new Error(`Unknown scale "${scale}".\n${USAGE}`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: 'demo' },
      'data-dir': { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const profile = profileFor(values.scale);
  const file = datasetFile(loadConfig().DATA_DIR, values.scale, values['data-dir']);
  if (values.force) {
    await rm(file, { force: true });
    await rm(`${file}.wal`, { force: true });
  }
  const store = await openUsageStore(file);
  try {
    const started = performance.now();
    const result = await seedIfEmpty(store, profile, (message) => {
      console.error(
        `[seed ${profile.name}] ${message} (${Math.round((performance.now() - started) / 1000)} s)`,
      );
    });
    console.log(
      result.seeded
        ? `Seeded ${result.traces} traces (${profile.name}) into ${file} in ${(result.ms / 1000).toFixed(1)} s.`
        : `${file} already holds data; nothing done (use --force to rebuild).`,
    );
  } finally {
    await store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
