import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server';

let server: TestServer | undefined;
afterAll(() => server?.close());

function createKey(dataDir: string, ...extra: string[]) {
  const child = spawn(process.execPath, [
    ...['--import', 'tsx', path.join('server', 'usage', 'cli', 'create-key.ts')],
    ...['--data-dir', dataDir, '--label', 'first key', ...extra],
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

describe('an admin key on a store without demo data', () => {
  it('sets a usage limit and lists the keys made', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'usage-admin-'));
    expect((await createKey(dataDir, '--role', 'owner')).code).toBe(2);
    const created = await createKey(dataDir, '--role', 'admin', '--create-workspace', 'Team');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/Role: admin \(.*usage-limits:manage.*organization:manage/);
    const key = /API key \(shown once\): (lsv2_\w+)/.exec(created.stdout)?.[1] ?? '';
    const workspace = /Workspace created: (\S+)/.exec(created.stdout)?.[1] ?? '';

    server = await startTestServer({ USAGE_SEED: 'none' }, dataDir);
    const limit = await fetch(`${server.baseUrl}/api/v1/usage-limits`, {
      method: 'PUT',
      headers: { 'x-api-key': key, 'x-tenant-id': workspace, 'content-type': 'application/json' },
      body: JSON.stringify({ limit_type: 'monthly_traces', limit_value: 1000 }),
    });
    expect(limit.status).toBe(200);
    const keys = await fetch(`${server.baseUrl}/api/v1/api-key`, { headers: { 'x-api-key': key } });
    expect(await keys.json()).toEqual([
      expect.objectContaining({ description: 'first key', role: 'admin', revoked_at: null }),
    ]);
  });
});
