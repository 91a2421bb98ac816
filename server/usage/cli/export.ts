import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import {
  TRACE_GROUP_BY_VALUES,
  TRACE_TIERS,
  USAGE_KINDS,
  workspacesResponseSchema,
} from '@contracts/usage/usage-schema';
import { toUsageSearchParams } from '@contracts/usage/search-params';
import { parseCliArgs, requiredArg, runCli, UsageError } from '@server/lib/cli-args';
import { createExportProgress } from './export-progress';

const USAGE = `Usage: npm run -s usage:export -- --out FILE --base-url URL --api-key KEY \\
         --start ISO --end ISO [--group-by workspace|project|user|api_key|trace_tier]
         [--kind traces|langsmith_deployments|llm_usage] [--trace-tier longlived|shortlived]
         [--workspace ID ...]

Streams GET {base-url}/api/v1/orgs/current/billing/granular-usage/export to FILE, with progress
on stderr (redrawn in place on a terminal; elsewhere the summary line alone). Without --out the CSV goes to stdout: then run npm with -s, or npm's banner (with the
key on the command line) ends up in the file. Works against this server or LangSmith
(e.g. https://api.smith.langchain.com). Without --workspace, every workspace the key can read
(GET /api/v1/workspaces). --kind langsmith_deployments exports the Deployments domain (nodes
executed, agent runs, agent uptime); --trace-tier keeps one retention tier of traces. The API
key may also come from LANGSMITH_API_KEY.
Exit codes: 0 done, 1 the export failed, 2 bad arguments.`;

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    start: { type: 'string' },
    end: { type: 'string' },
    'group-by': { type: 'string', default: 'workspace' },
    kind: { type: 'string', default: 'traces' },
    'trace-tier': { type: 'string' },
    workspace: { type: 'string', multiple: true, default: [] },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const baseUrl = requiredArg('base-url', values['base-url']);
  const apiKey = values['api-key'] ?? process.env.LANGSMITH_API_KEY;
  if (!apiKey) throw new UsageError('--api-key is required (or set LANGSMITH_API_KEY)');
  const start = requiredArg('start', values.start);
  const end = requiredArg('end', values.end);
  const groupBy = oneOf('group-by', TRACE_GROUP_BY_VALUES, values['group-by']);
  const kind = oneOf('kind', USAGE_KINDS, values.kind);
  const tier = values['trace-tier'];
  const traceTier = tier === undefined ? undefined : oneOf('trace-tier', TRACE_TIERS, tier);
  if (!URL.canParse(baseUrl)) throw new UsageError(`--base-url is not a URL: "${baseUrl}"`);
  const root = `${baseUrl.replace(/\/+$/, '')}/api/v1`;
  const workspaceIds =
    values.workspace.length > 0 ? values.workspace : await readableWorkspaces(root, apiKey);
  if (workspaceIds === undefined) return 1;
  const search = toUsageSearchParams({
    start_time: start,
    end_time: end,
    workspace_ids: workspaceIds,
    group_by: groupBy,
    kind,
    trace_tier: traceTier,
  });
  const url = `${root}/orgs/current/billing/granular-usage/export?${search}`;
  const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
  if (!response.ok || !response.body) {
    const body = (await response.text()).slice(0, 2000);
    console.error(`Export failed: HTTP ${response.status} ${response.statusText}\n${body}`);
    return 1;
  }
  const sink = values.out ? createWriteStream(values.out) : process.stdout;
  const progress = createExportProgress(process.stderr);
  let bytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (!sink.write(value)) await once(sink, 'drain');
    progress.update(bytes);
  }
  if (sink !== process.stdout) {
    sink.end();
    await finished(sink);
  }
  progress.done(bytes, values.out);
  return 0;
}

/** `value` if it is one of `choices`, else the usage error naming the flag. */
function oneOf<T extends string>(
  flag: string,
  choices: readonly T[],
  value: string | undefined,
): T {
  const found = choices.find((choice) => choice === value);
  if (found === undefined) {
    throw new UsageError(`--${flag} must be one of ${choices.join(', ')} (got "${value}")`);
  }
  return found;
}

/** Every workspace the key can read, or undefined (after saying why) when that fails. */
async function readableWorkspaces(root: string, apiKey: string): Promise<string[] | undefined> {
  const response = await fetch(`${root}/workspaces`, { headers: { 'x-api-key': apiKey } });
  if (!response.ok) {
    const body = (await response.text()).slice(0, 2000);
    console.error(
      `Listing workspaces failed: HTTP ${response.status} ${response.statusText}\n${body}`,
    );
    return undefined;
  }
  const workspaces = workspacesResponseSchema.parse(await response.json());
  process.stderr.write(`Exporting ${workspaces.length} readable workspace(s).\n`);
  return workspaces.map((workspace) => workspace.id);
}

runCli(USAGE, main);
