import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, TEST_WORKSPACE_IDS, type TestServer } from './test-server';

const run = promisify(execFile);
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('usage:export with stderr not a terminal (a pipe, as in CI or a log file)', () => {
  it('writes whole lines only: the summary, no carriage-return redraws', async () => {
    const out = path.join(server.dataDir, 'piped.csv');
    const { stdout, stderr } = await run(
      process.execPath,
      [
        ...['--import', 'tsx', 'server/usage/cli/export.ts'],
        ...['--out', out, '--base-url', server.baseUrl, '--api-key', ADMIN['x-api-key']],
        ...['--start', '2026-02-01T00:00:00Z', '--end', '2026-02-03T00:00:00Z'],
        ...['--workspace', TEST_WORKSPACE_IDS[0] ?? ''],
      ],
      { env: { ...process.env, LANGSMITH_API_KEY: '' } },
    );
    const size = (await readFile(out)).byteLength;
    expect(stdout).toBe('');
    expect(stderr).not.toContain('\r');
    expect(stderr).toMatch(
      new RegExp(
        `^${(size / 1e6).toFixed(1)} MB in \\d+\\.\\d s -> ${out.replaceAll('.', '\\.')}\\n$`,
      ),
    );
  });
});
