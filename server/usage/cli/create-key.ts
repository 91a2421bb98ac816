import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseCliArgs, runCli, UsageError } from '@server/cli/cli-args';
import { loadConfig, loadDotEnv } from '@server/config';
import { backendChoice, duckDbFile, openBackend } from '../store/open-usage-backend';
import { UsageInputError } from '../store/usage-backend';

const USAGE = `Usage: npm run -s usage:create-key -- [--label NAME] [--workspace ID ...] [--data-dir DIR]

Creates a usage API key (organization:read) in the server's usage store and prints it once; only
its sha256 is stored. The key reads the given workspaces, or every workspace the store holds
now. The store is the server's: ClickHouse + Postgres when CLICKHOUSE_URL and DATABASE_URI are
set (the servers may be running), else DATA_DIR/usage.duckdb (or --data-dir), with the server
stopped (DuckDB lets one process write the file). Variables come from the environment or .env.
Exit codes: 0 done, 1 failed, 2 bad arguments.`;

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    label: { type: 'string', default: 'created with usage:create-key' },
    workspace: { type: 'string', multiple: true, default: [] },
    'data-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  loadDotEnv();
  const choice = values['data-dir']
    ? ({ kind: 'duckdb', file: duckDbFile(path.resolve(values['data-dir'])) } as const)
    : backendChoice(loadConfig());
  const file = choice.kind === 'duckdb' ? choice.file : 'the ClickHouse + Postgres store';
  const backend = await openBackend(choice).catch((error: unknown) => {
    const locked = error instanceof Error && /lock/i.test(error.message);
    throw new Error(
      locked
        ? `${file} is in use (is the server running?). Stop it, then run this again.`
        : `Cannot open ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  try {
    const key = `lsv2_${randomBytes(24).toString('hex')}`;
    const workspaces = await backend
      .createApiKey({ key, label: values.label, workspaceIds: values.workspace })
      .catch((error: unknown) => {
        if (error instanceof UsageInputError) throw new UsageError(error.message);
        throw error;
      });
    console.log(`API key (shown once): ${key}
It reads ${workspaces === 0 ? 'no workspace yet (the database holds none)' : `${workspaces} workspace(s)`}.

Next steps:
  1. Make it the console's key: set USAGE_CONSOLE_API_KEY=${key} in .env, then npm start.
  2. Add data: POST traces to the ingest endpoint (server/usage/README.md), or load the demo
     dataset into a fresh DATA_DIR with USAGE_SEED=demo. Keys see workspaces granted when they
     are created: run this again after adding workspaces.`);
    return 0;
  } finally {
    await backend.close();
  }
}

runCli(USAGE, main);
