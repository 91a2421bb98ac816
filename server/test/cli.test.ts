import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPLOYMENT_CSV_COLUMNS } from '@contracts/usage/deployment-usage-schema';
import { ADMIN, startTestServer, TEST_WORKSPACE_IDS } from '@server/usage/test/test-server';

const root = process.cwd();
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** Runs a CLI as `npm run` does (node + tsx), from `cwd`, with no .env unless the test adds one. */
function runCli(script: string, args: string[], cwd = root) {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), path.join(root, script), ...args],
    {
      cwd,
      env: {
        ...process.env,
        LANGSMITH_API_KEY: '',
        LANGGRAPH_API_KEY: '',
        // The @server alias, from whatever folder the CLI runs in.
        TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json'),
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const STACK_FRAME = /^\s+at /m;

describe('CLI argument mistakes: exit 2, the argument named, no stack trace', () => {
  it.each([
    ['server/usage/cli/export.ts', ['--base-url', 'http://x', '--api-key', 'k'], '--start'],
    ['server/usage/cli/export.ts', ['--start', 'a', '--end', 'b', '--group-by', 'x'], '--base-url'],
    ['server/usage/cli/export.ts', ['--bogus'], "'--bogus'"],
    [
      'server/usage/cli/export.ts',
      ['--base-url', 'http://x', '--api-key', 'k', '--start', 'a', '--end', 'b', '--kind', 'x'],
      '--kind',
    ],
    ['server/usage/cli/seed.ts', ['--scale', 'XL'], '--scale'],
    ['tools/usage/bench.ts', ['--runs', 'many'], '--runs'],
    ['tools/deployment/cli/conformance.ts', [], '--deployment-url'],
    [
      'tools/deployment/cli/conformance.ts',
      ['--deployment-url', 'http://x', '--later-ms', 'x'],
      '--later-ms',
    ],
    ['tools/deployment/cli/bench.ts', ['--threads', '0'], '--threads'],
    ['scripts/bench-ui.ts', ['--runs', 'x'], '--runs'],
    ['tools/usage/bench-ingest.ts', ['--seconds', 'x'], '--seconds'],
    ['server/usage/cli/create-key.ts', ['--create-workspace', ''], '--create-workspace'],
    ['tools/deployment/cli/test-peer.ts', ['--port', 'x'], '--port'],
  ])('%s %j names %s', async (script, args, named) => {
    const result = await runCli(script, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr.split('\n')[0]).toContain(named);
    expect(result.stderr).toContain('Usage:');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });
});

/** Every command of package.json that takes arguments, as `npm run <name>` starts it. */
const EVERY_CLI = [
  'server/main.ts',
  'server/usage/cli/seed.ts',
  'server/usage/cli/export.ts',
  'server/usage/cli/create-key.ts',
  'tools/usage/bench.ts',
  'tools/usage/bench-ingest.ts',
  'tools/deployment/cli/conformance.ts',
  'tools/deployment/cli/sdk-calls.ts',
  'tools/deployment/cli/test-peer.ts',
  'tools/deployment/cli/bench.ts',
  'scripts/bench-ui.ts',
  'tools/fuzz/fuzz.ts',
];

describe.each(EVERY_CLI)('%s', (script) => {
  it('answers --help with its usage on stdout, exit 0, doing nothing else', async () => {
    const result = await runCli(script, ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm (run|start)/);
    expect(result.stderr).toBe('');
  });

  it('answers an unknown option with the error and its usage, exit 2, no stack trace', async () => {
    const result = await runCli(script, ['--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe("error: Unknown option '--bogus'");
    expect(result.stderr).toContain('Usage:');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('bench:ui with no server', () => {
  it('fails in one line naming the URL, exit 1', async () => {
    const result = await runCli('scripts/bench-ui.ts', ['--base-url', 'http://127.0.0.1:1']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^error: no server answers at http:\/\/127\.0\.0\.1:1 /),
    ]);
  });
});

describe('conformance against a dead URL', () => {
  it('stops at once with one message naming the URL', async () => {
    const started = performance.now();
    const result = await runCli('tools/deployment/cli/conformance.ts', [
      '--deployment-url',
      'http://127.0.0.1:1',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^error: Cannot reach the deployment at http:\/\/127\.0\.0\.1:1\/info/),
    ]);
    expect(result.stdout).not.toContain('FAIL');
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});

describe('seed reads .env like the server', () => {
  it('applies the .env of the folder it runs in (a bad PORT there stops it, named)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'usage-console-cli-'));
    dirs.push(dir);
    await writeFile(path.join(dir, '.env'), `PORT=\nDATA_DIR=${dir}\n`);
    const result = await runCli('server/usage/cli/seed.ts', ['--scale', 'demo'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/PORT:/);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('usage:export --out', () => {
  it('writes the CSV alone to the file', async () => {
    const server = await startTestServer();
    try {
      const out = path.join(server.dataDir, 'usage.csv');
      const result = await runCli('server/usage/cli/export.ts', [
        ...['--out', out, '--base-url', server.baseUrl, '--api-key', ADMIN['x-api-key']],
        ...['--start', '2026-02-01T00:00:00Z', '--end', '2026-02-03T00:00:00Z'],
        ...['--workspace', TEST_WORKSPACE_IDS[0] ?? ''],
      ]);
      expect(result.code).toBe(0);
      const csv = await readFile(out, 'utf8');
      expect(csv.replace(/^\uFEFF/, '')).toMatch(/^Time Bucket Start,Time Bucket End,/);
      expect(result.stdout).toBe('');
      // The Deployments domain: its own header, the three metrics in place of Traces.
      const deployments = path.join(server.dataDir, 'deployments.csv');
      const second = await runCli('server/usage/cli/export.ts', [
        ...['--out', deployments, '--base-url', server.baseUrl, '--api-key', ADMIN['x-api-key']],
        ...['--start', '2026-02-01T00:00:00Z', '--end', '2026-02-03T00:00:00Z'],
        ...['--kind', 'langsmith_deployments', '--group-by', 'project'],
      ]);
      expect(second.code).toBe(0);
      const [header, first] = (await readFile(deployments, 'utf8')).split('\r\n');
      expect(header).toBe(DEPLOYMENT_CSV_COLUMNS.join(','));
      // A project row fills only the project's columns (spec 2.3), then the three metrics.
      expect(first).toMatch(
        /^2026-02-01T00:00:00.000Z,2026-02-02T00:00:00.000Z,,,[\da-f-]{36},[^,]+,,,,\d+,\d+,\d+$/,
      );
    } finally {
      await server.close();
    }
  });
});
