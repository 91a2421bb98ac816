import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { parseCliArgs, runCli, UsageError } from '@server/lib/cli-args';
import { loadConfig, loadDotEnv, localBaseUrl } from '@server/config';
import { checkBackends } from '@server/startup/check-backends';
import { backendChoice, duckDbFile, openStore } from '../store/open-usage-store';
import { KEY_ROLES, ROLE_PERMISSIONS, type KeyRole } from '../store/key-roles';
import { UsageInputError } from '../store/usage-store';

const USAGE = `Usage: npm run -s usage:create-key -- [--role viewer|writer|admin] [--create-workspace NAME]
       [--label NAME] [--workspace ID ...] [--data-dir DIR]

Creates a usage API key in the server's usage store and prints it once; only its sha256 is
stored. The key reads the given workspaces, or every workspace the store holds now.
  --role viewer            reads usage (organization:read), read-only workspaces (the default)
  --role writer            also ingests traces (runs:create) into its workspaces
  --role admin             also sets usage limits (usage-limits:manage), manages API keys and
                           reads the audit log (organization:manage)
  --writer                 the same as --role writer
  --create-workspace NAME  first creates a workspace of that name and grants the key to it
The store is the server's: ClickHouse + Postgres when CLICKHOUSE_URL and DATABASE_URI are set (the
servers may be running), else DATA_DIR/usage.duckdb (or --data-dir), with the server stopped
(DuckDB lets one process write the file). Variables come from the environment or .env.
Exit codes: 0 done, 1 failed, 2 bad arguments.`;

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    label: { type: 'string', default: 'created with usage:create-key' },
    workspace: { type: 'string', multiple: true, default: [] },
    'create-workspace': { type: 'string' },
    role: { type: 'string' },
    writer: { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const role = keyRole(values.role, values.writer);
  const workspaceName = values['create-workspace']?.trim();
  if (workspaceName === '') throw new UsageError('--create-workspace needs a name');
  loadDotEnv();
  const config = loadConfig();
  const choice = values['data-dir']
    ? ({ kind: 'duckdb', file: duckDbFile(path.resolve(values['data-dir'])) } as const)
    : backendChoice(config);
  // The scale-out servers answer first, or the one that does not is named in one line.
  if (choice.kind !== 'duckdb') await checkBackends(config);
  const file = choice.kind === 'duckdb' ? choice.file : 'the ClickHouse + Postgres store';
  const backend = await openStore(choice).catch((error: unknown) => {
    const locked = error instanceof Error && /lock/i.test(error.message);
    throw new Error(
      locked
        ? `${file} is in use (is the server running?). Stop it, then run this again.`
        : `Cannot open ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  try {
    const key = `lsv2_${randomBytes(24).toString('hex')}`;
    const created = workspaceName ? randomUUID() : undefined;
    if (created) {
      await backend.catalog.createWorkspace({
        id: created,
        displayName: workspaceName ?? '',
        createdAt: new Date(),
      });
    }
    const workspaceIds = [...(created ? [created] : []), ...values.workspace];
    const workspaces = await backend.catalog
      .createApiKey({ key, label: values.label, workspaceIds, role })
      .catch((error: unknown) => {
        if (error instanceof UsageInputError) throw new UsageError(error.message);
        throw error;
      });
    const workspace = workspaceIds[0];
    const baseUrl = localBaseUrl(config);
    console.log(nextSteps({ key, workspaces, created, workspace, role, baseUrl }));
    return 0;
  } finally {
    await backend.close();
  }
}

/** The role `--role` names (`--writer` says writer); a bad one is a usage error. */
function keyRole(role: string | undefined, writer: boolean): KeyRole {
  if (role === undefined) return writer ? 'writer' : 'viewer';
  const known = KEY_ROLES.find((candidate) => candidate === role);
  if (!known) throw new UsageError(`--role ${role}: expected one of ${KEY_ROLES.join(', ')}`);
  if (writer && known !== 'writer') throw new UsageError(`--writer contradicts --role ${role}`);
  return known;
}

/** What to do with the key: the first-run steps of docs/operations.md with this key and workspace filled in. */
function nextSteps(made: {
  key: string;
  workspaces: number;
  created?: string;
  /** The workspace the usage query names: the one created, else the first given. */
  workspace?: string;
  role: KeyRole;
  /** The server's URL from HOST and PORT, as the server itself is configured. */
  baseUrl: string;
}) {
  const reads =
    made.workspaces === 0
      ? 'no workspace yet (the database holds none: add --create-workspace NAME)'
      : `${made.workspaces} workspace(s)`;
  const writer = made.role !== 'viewer';
  const lines = [
    `API key (shown once): ${made.key}`,
    `Role: ${made.role} (${ROLE_PERMISSIONS[made.role].join(', ')})`,
    ...(made.created ? [`Workspace created: ${made.created}`] : []),
    `It reads ${reads}${writer ? ' and can send traces to them (runs:create)' : ''}.`,
    '',
    'Next steps:',
    `  1. Make it the console's key: USAGE_CONSOLE_API_KEY=${made.key} in .env, then npm start.`,
  ];
  if (writer) {
    lines.push(
      `  2. Send a trace (one root run is one trace):`,
      `     curl -X POST ${made.baseUrl}/api/v1/runs -H 'x-api-key: ${made.key}' \\`,
      `       -H 'content-type: application/json' \\`,
      `       -d "{\\"id\\": \\"$(node -p 'crypto.randomUUID()')\\", \\"name\\": \\"hello\\", \\"run_type\\": \\"chain\\", \\"session_name\\": \\"first-project\\"}"`,
      `     or point the langsmith SDK at it: LANGSMITH_ENDPOINT=${made.baseUrl} LANGSMITH_API_KEY=<the key>.`,
      `  3. See it counted (by project, this year to 2100):`,
      `     curl -H 'x-api-key: ${made.key}' \\`,
      `       '${made.baseUrl}/api/v1/orgs/current/billing/granular-usage?start_time=2026-01-01T00:00:00Z&end_time=2100-01-01T00:00:00Z&workspace_ids=${made.workspace ?? '<workspace id>'}&group_by=project'`,
    );
  } else {
    lines.push(
      '  2. Add data: create a key with --role writer and POST traces (server/usage/README.md), or load',
      '     the demo dataset into a fresh DATA_DIR with USAGE_SEED=demo. Keys see the workspaces',
      '     granted when they are created: run this again after adding workspaces.',
    );
  }
  return lines.join('\n');
}

runCli(USAGE, main);
