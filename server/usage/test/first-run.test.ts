import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server';

let server: TestServer | undefined;
afterAll(() => server?.close());

function createKey(dataDir: string) {
  const child = spawn(process.execPath, [
    ...['--import', 'tsx', path.join('server', 'usage', 'cli', 'create-key.ts')],
    ...['--data-dir', dataDir, '--label', 'first key'],
  ]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('first run with USAGE_SEED=none', () => {
  it('says so in the public config, refuses the default key, and usage:create-key makes one', async () => {
    server = await startTestServer({ USAGE_SEED: 'none' });
    const config = await (await fetch(`${server.baseUrl}/_console/config`)).json();
    expect(config).toMatchObject({ usage: { source: 'embedded', seed: 'none' } });
    expect((await fetch(`${server.baseUrl}/_console/usage/workspaces`)).status).toBe(401);

    const { dataDir } = server;
    const whileRunning = await createKey(dataDir);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toMatch(/is in use \(is the server running\?\)/);

    await server.close({ keepData: true });
    const created = await createKey(dataDir);
    expect(created.code).toBe(0);
    const key = /API key \(shown once\): (lsv2_\w+)/.exec(created.stdout)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(created.stdout).toContain(`USAGE_CONSOLE_API_KEY=${key}`);
    expect(created.stdout).toMatch(/Add data/);

    server = await startTestServer({ USAGE_SEED: 'none', USAGE_CONSOLE_API_KEY: key }, dataDir);
    const workspaces = await fetch(`${server.baseUrl}/_console/usage/workspaces`);
    expect(workspaces.status).toBe(200);
    expect(await workspaces.json()).toEqual([]);
  });
});
