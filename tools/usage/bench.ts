import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { numberArg, parseCliArgs, runCli, UsageError } from '@server/lib/cli-args';
import { loadConfig, loadDotEnv, type Config } from '@server/config';
import type { SeedProfile } from '@server/usage/seed/seed-profiles';
import { openStore, type BackendChoice } from '@server/usage/store/open-usage-store';
import { benchLlmQueries, seedDuckDbBenchLlmRuns, type LlmFigures } from './bench-llm';
import { seedScaleOutBenchLlm } from './bench-llm-scale-out';
import { benchPair } from './bench-pair';
import { benchQueries, type QueryFigures } from './bench-queries';
import { benchIngestion, type IngestFigures } from './bench-replicas';
import { datasetFile, profileFor } from '@server/usage/cli/seed';

const USAGE = `Usage: npm run bench:usage -- [--scale S|M|L] [--backend duckdb|clickhouse|both]
         [--runs 15] [--ingest-seconds 10] [--data-dir DIR] [--interleave]
Builds (or reuses) the dataset of --scale (default S: 1M traces; M 10M; L 104M, ~14 GB of disk
and ~18 GB of memory on DuckDB) in each backend, then prints markdown tables of query latencies
and export throughput, ingestion runs/s (DuckDB: one process; ClickHouse: one and two replicas),
and a summary across backends; then a year of LLM usage (kind=llm_usage) by user and by model
beside a year of traces by user (a dataset gets one LLM run per trace, built once: in the DuckDB
file, or as the daily rollup in Postgres from the ClickHouse traces).
DuckDB: DATA_DIR/bench-<scale>/usage.duckdb. ClickHouse: needs
CLICKHOUSE_URL and DATABASE_URI; uses the ClickHouse and Postgres databases usage_bench_<scale>
(the Postgres one is created when missing). Variables come from the environment or .env.
--ingest-seconds 0 skips ingestion (which adds traces to the dataset's current day).
--interleave (with --backend both): only the JSON endpoint's latency, one request on each
backend in turn, and the ratio (fair on a machine whose load changes during the run).
Exit codes: 0 done, 1 failed, 2 bad arguments.`;

interface Target {
  choice: BackendChoice;
  /** The same store as server environment variables (for the replicas). */
  env: Record<string, string>;
}

async function duckDbTarget(config: Config, scale: string, dataDir?: string): Promise<Target> {
  const file = datasetFile(config.DATA_DIR, scale, dataDir);
  // Emptied so a replica started from a shell holding the ClickHouse variables (services.sh
  // exports them) stays on DuckDB: it inherits the environment (its key lookups answered 401).
  const env = { DATA_DIR: path.dirname(file), CLICKHOUSE_URL: '', DATABASE_URI: '' };
  return { choice: { kind: 'duckdb', file }, env };
}

async function clickHouseTarget(config: Config, scale: string): Promise<Target> {
  if (!config.CLICKHOUSE_URL || !config.DATABASE_URI) {
    throw new UsageError('--backend clickhouse needs CLICKHOUSE_URL and DATABASE_URI');
  }
  const database = `usage_bench_${scale.toLowerCase()}`;
  const admin = new pg.Client({ connectionString: config.DATABASE_URI });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const databaseUri = new URL(config.DATABASE_URI);
  databaseUri.pathname = `/${database}`;
  const clickhouse = {
    url: config.CLICKHOUSE_URL,
    username: config.CLICKHOUSE_USER,
    password: config.CLICKHOUSE_PASSWORD,
    database,
  };
  const env: Record<string, string> = {
    CLICKHOUSE_URL: config.CLICKHOUSE_URL,
    CLICKHOUSE_DATABASE: database,
    DATABASE_URI: databaseUri.toString(),
  };
  if (config.CLICKHOUSE_USER) env.CLICKHOUSE_USER = config.CLICKHOUSE_USER;
  if (config.CLICKHOUSE_PASSWORD) env.CLICKHOUSE_PASSWORD = config.CLICKHOUSE_PASSWORD;
  return { choice: { kind: 'clickhouse', clickhouse, databaseUri: databaseUri.toString() }, env };
}

async function benchBackend(
  target: Target,
  profile: SeedProfile,
  runs: number,
  ingestSeconds: number,
) {
  const log = (message: string) =>
    console.error(`[bench ${target.choice.kind} ${profile.name}] ${message}`);
  // The LLM usage is built from the traces: traces first.
  const seeding = await openStore(target.choice);
  try {
    const seeded = await seeding.seeder.seedIfEmpty(profile, log);
    if (seeded.seeded) log(`built ${seeded.traces} traces in ${(seeded.ms / 1000).toFixed(1)} s`);
  } finally {
    await seeding.close();
  }
  if (target.choice.kind === 'duckdb') await seedDuckDbBenchLlmRuns(target.choice.file, log);
  else await seedScaleOutBenchLlm(target.choice, log);
  const backend = await openStore(target.choice);
  let result: { lines: string[]; figures: QueryFigures; llm: LlmFigures };
  try {
    const queries = await benchQueries(backend, profile, runs, log);
    const llm = await benchLlmQueries(backend, profile, runs);
    log(llm.lines.join('\n'));
    result = { ...queries, lines: [...queries.lines, ...llm.lines], llm: llm.figures };
  } finally {
    await backend.close();
  }
  const ingestion: IngestFigures[] = [];
  if (ingestSeconds > 0) {
    const options = { seconds: ingestSeconds, warmup: 5, batch: 500, senders: 2 };
    // DuckDB lets one process hold the file; ClickHouse + Postgres take any number.
    for (const replicas of target.choice.kind === 'duckdb' ? [1] : [1, 2]) {
      log(`ingesting through ${replicas} replica(s)`);
      ingestion.push(await benchIngestion(target.env, replicas, options));
    }
    result.lines.push(
      '',
      `| Ingestion (${target.choice.kind}, batches of 500, 2 senders per replica) | runs/s | batch p50 ms |`,
      '|---|---:|---:|',
      ...ingestion.map(
        (figures) =>
          `| ${figures.replicas} replica(s) | ${figures.runsPerSecond.toFixed(0)} | ${figures.batchP50Ms.toFixed(0)} |`,
      ),
    );
  }
  return { kind: target.choice.kind, ...result, ingestion };
}

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    scale: { type: 'string', default: 'S' },
    backend: { type: 'string', default: 'duckdb' },
    runs: { type: 'string', default: '15' },
    'ingest-seconds': { type: 'string', default: '10' },
    'data-dir': { type: 'string' },
    interleave: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const runs = numberArg('runs', values.runs, 1);
  const ingestSeconds = numberArg('ingest-seconds', values['ingest-seconds'], 0);
  if (!['duckdb', 'clickhouse', 'both'].includes(values.backend)) {
    throw new UsageError(`--backend must be duckdb, clickhouse or both (got "${values.backend}")`);
  }
  loadDotEnv();
  const config = loadConfig();
  const profile = profileFor(values.scale);
  if (values.interleave) {
    if (values.backend !== 'both') throw new UsageError('--interleave needs --backend both');
    const log = (message: string) => console.error(`[bench ${profile.name}] ${message}`);
    const duck = await openStore(
      (await duckDbTarget(config, values.scale, values['data-dir'])).choice,
    );
    try {
      const clickhouse = await openStore((await clickHouseTarget(config, values.scale)).choice);
      try {
        await duck.seeder.seedIfEmpty(profile, log);
        await clickhouse.seeder.seedIfEmpty(profile, log);
        console.log((await benchPair(duck, clickhouse, profile, runs)).join('\n'));
      } finally {
        await clickhouse.close();
      }
    } finally {
      await duck.close();
    }
    return 0;
  }
  const kinds = values.backend === 'both' ? ['duckdb', 'clickhouse'] : [values.backend];
  const results = [];
  for (const kind of kinds) {
    const target =
      kind === 'duckdb'
        ? await duckDbTarget(config, values.scale, values['data-dir'])
        : await clickHouseTarget(config, values.scale);
    const result = await benchBackend(target, profile, runs, ingestSeconds);
    console.log(result.lines.join('\n'), '\n');
    results.push(result);
  }
  const duck = results.find((result) => result.kind === 'duckdb')?.figures;
  const ratio = (value: number, base: number | undefined) =>
    base === undefined ? '' : ` (${(value / base).toFixed(2)}x)`;
  console.log(
    [
      `Summary, dataset ${profile.name}, ${os.cpus().length} cores, Node ${process.version}:`,
      '',
      '| Backend | 1 y by user p50 ms | 1 y by workspace p50 ms | LLM 1 y by user / by model p50 ms (of traces by user) | export 1 y by user MB/s | ingestion runs/s (replicas) |',
      '|---|---:|---:|---:|---:|---|',
      ...results.map(
        ({ kind, figures, ingestion, llm }) =>
          `| ${kind} | ${figures.yearUserP50.toFixed(1)}${ratio(figures.yearUserP50, duck?.yearUserP50)} | ` +
          `${figures.yearWorkspaceP50.toFixed(1)}${ratio(figures.yearWorkspaceP50, duck?.yearWorkspaceP50)} | ` +
          `${llm ? `${llm.llmYearUserP50.toFixed(1)}${ratio(llm.llmYearUserP50, llm.tracesYearUserP50)} / ${llm.llmYearModelP50.toFixed(1)}${ratio(llm.llmYearModelP50, llm.tracesYearUserP50)}` : ''} | ` +
          `${figures.exportMbPerSecond.toFixed(0)} | ` +
          `${ingestion.map((i) => `${i.runsPerSecond.toFixed(0)} (${i.replicas})`).join(', ')} |`,
      ),
    ].join('\n'),
  );
  return 0;
}

runCli(USAGE, main);
