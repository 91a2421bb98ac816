import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import {
  freePort,
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  WITHOUT_DEVELOPER_SERVICES,
} from './server-process';

const run = promisify(execFile);
const root = process.cwd();
let dataDir = '';
afterAll(async () => {
  await removeServerDataDirs();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The numbered step of the CLI's printed next steps, its command lines joined as a shell would. */
function step(printed: string, number: number): string {
  const lines = printed.split('\n');
  const start = lines.findIndex((line) => line.trim().startsWith(`${number}. `));
  const command: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.trim().startsWith('curl') && command.length === 0) continue;
    command.push(line.trim());
    if (!line.endsWith('\\')) break;
  }
  return command.join('\n');
}

it('goes from an empty DATA_DIR (USAGE_SEED=none) to one trace counted, by the printed steps', async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'first-run-'));
  // Not the default port: the printed steps must name the one the server is configured with.
  const port = String(await freePort());
  const env = {
    ...process.env,
    ...WITHOUT_DEVELOPER_SERVICES,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: port,
    USAGE_CONSOLE_NO_DOTENV: '1',
    USAGE_SEED: 'none',
  };
  // `npm run -s usage:create-key -- --create-workspace "My team" --writer`, as npm runs it.
  const created = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/usage/cli/create-key.ts',
      '--create-workspace',
      'My team',
      '--writer',
    ],
    { cwd: root, env },
  );
  const key = /API key \(shown once\): (\S+)/.exec(created.stdout)?.[1] ?? '';
  const workspace = /Workspace created: (\S+)/.exec(created.stdout)?.[1] ?? '';
  expect(key).toMatch(/^lsv2_/);

  const server = await startServerProcess(
    { USAGE_CONSOLE_API_KEY: key, PORT: port },
    'node',
    dataDir,
  );
  const url = (await readyUrl(server)).replace(/\/+$/, '');
  expect(url).toBe(`http://127.0.0.1:${port}`);
  try {
    // Steps 2 and 3 exactly as printed (and as docs/operations.md shows them).
    expect(created.stdout).toContain(`LANGSMITH_ENDPOINT=${url} `);
    const sent = await run('bash', ['-c', step(created.stdout, 2)], { env });
    expect(JSON.parse(sent.stdout)).toMatchObject({ accepted: 1, traces_billed: 1 });
    const counted = await run('bash', ['-c', step(created.stdout, 3)], { env });
    const answer = JSON.parse(counted.stdout) as {
      usage: { traces: number; dimensions: Record<string, string> }[];
    };
    expect(answer.usage).toEqual([
      expect.objectContaining({
        traces: 1,
        dimensions: expect.objectContaining({
          project_name: 'first-project',
          workspace_id: workspace,
        }),
      }),
    ]);
    // The console reads with the same key: the workspace is listed.
    const listed = await fetch(`${url}/_console/usage/workspaces`);
    expect(await listed.json()).toEqual([
      expect.objectContaining({ id: workspace, display_name: 'My team' }),
    ]);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
