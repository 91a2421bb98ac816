import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { groupBySchema, workspacesResponseSchema } from '@contracts/usage/usage-schema';
import { toUsageSearchParams } from '@contracts/usage/search-params';

const USAGE = `Usage: npm run usage:export -- --base-url URL --api-key KEY --start ISO --end ISO
         [--group-by workspace|project|user|api_key] [--workspace ID ...] [--out FILE]

Streams GET {base-url}/api/v1/orgs/current/billing/granular-usage/export to FILE (or stdout),
with progress on stderr. Works against this server or LangSmith (e.g. https://api.smith.langchain.com).
Without --workspace, every workspace the key can read (GET /api/v1/workspaces).
The API key may also come from LANGSMITH_API_KEY.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      start: { type: 'string' },
      end: { type: 'string' },
      'group-by': { type: 'string', default: 'workspace' },
      workspace: { type: 'string', multiple: true, default: [] },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const apiKey = values['api-key'] ?? process.env.LANGSMITH_API_KEY;
  const groupBy = groupBySchema.safeParse(values['group-by']);
  const { start, end, 'base-url': baseUrl } = values;
  if (values.help || !baseUrl || !apiKey || !start || !end || !groupBy.success) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const root = `${baseUrl.replace(/\/+$/, '')}/api/v1`;
  const workspaceIds =
    values.workspace.length > 0 ? values.workspace : await readableWorkspaces(root, apiKey);
  if (workspaceIds === undefined) return 1;
  const search = toUsageSearchParams({
    start_time: start,
    end_time: end,
    workspace_ids: workspaceIds,
    group_by: groupBy.data,
  });
  const url = `${root}/orgs/current/billing/granular-usage/export?${search}`;
  const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
  if (!response.ok || !response.body) {
    const body = (await response.text()).slice(0, 2000);
    console.error(`Export failed: HTTP ${response.status} ${response.statusText}\n${body}`);
    return 1;
  }
  const sink = values.out ? createWriteStream(values.out) : process.stdout;
  const started = performance.now();
  let bytes = 0;
  let lastReport = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (!sink.write(value)) await once(sink, 'drain');
    if (performance.now() - lastReport > 500) {
      lastReport = performance.now();
      process.stderr.write(`\r${(bytes / 1e6).toFixed(1)} MB`);
    }
  }
  if (sink !== process.stdout) {
    sink.end();
    await finished(sink);
  }
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(
    `\r${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s${values.out ? ` -> ${values.out}` : ''}\n`,
  );
  return 0;
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Export failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
