import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseCliArgs, runCli, UsageError } from '@server/lib/cli-args';
import { loadConfig, loadDotEnv } from '@server/config';
import { benchProfile, demoProfile, type SeedProfile } from '../seed/seed-profiles';
import { openStore } from '../store/open-usage-store';

const USAGE = `Usage: npm run seed -- --scale demo|S|M|L [--data-dir DIR] [--force]

  demo  the dataset the server loads on first start (DATA_DIR/usage.duckdb)
  S|M|L 1 year, 20 workspaces, 500 projects, 5,000 users, 2,000 keys and
        1M / 10M / 100M traces (DATA_DIR/bench-<scale>/usage.duckdb)
  --force  delete the database file first (otherwise an existing dataset is kept)
DATA_DIR comes from the environment or .env, as for the server.
Exit codes: 0 done, 1 failed, 2 bad arguments.`;

/** The file a scale lives in, unless --data-dir says otherwise. */
export function datasetFile(dataDir: string, scale: string, override?: string): string {
  if (override) return path.join(path.resolve(override), 'usage.duckdb');
  return path.join(dataDir, scale === 'demo' ? '' : `bench-${scale}`, 'usage.duckdb');
}

export function profileFor(scale: string): SeedProfile {
  if (scale === 'demo') return demoProfile(Date.now());
  if (scale === 'S' || scale === 'M' || scale === 'L') return benchProfile(scale);
  throw new UsageError(`--scale must be demo, S, M or L (got "${scale}")`);
}

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    scale: { type: 'string', default: 'demo' },
    'data-dir': { type: 'string' },
    force: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  loadDotEnv();
  const profile = profileFor(values.scale);
  const file = datasetFile(loadConfig().DATA_DIR, values.scale, values['data-dir']);
  if (values.force) {
    await rm(file, { force: true });
    await rm(`${file}.wal`, { force: true });
  }
  const backend = await openStore({ kind: 'duckdb', file });
  try {
    const started = performance.now();
    const result = await backend.seeder.seedIfEmpty(profile, (message) => {
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
    await backend.close();
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) runCli(USAGE, main);
