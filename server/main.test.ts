import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Starts `server/main.ts` as `npm start` would (without the build), with extra variables. */
async function startProcess(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'usage-console-main-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      USAGE_CONSOLE_NO_DOTENV: '1',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      USAGE_SEED: 'none',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => output };
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
}

describe('the server process', () => {
  it('prints its URL, answers /healthz, and stops cleanly on SIGTERM', async () => {
    const server = await startProcess({});
    const url = await waitFor(() => /ready: (http:\/\/\S+)/.exec(server.output())?.[1]);
    const health = await fetch(`${url}healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('Stopped.');
  });

  it('refuses to start on bad configuration and names the variable', async () => {
    const server = await startProcess({ PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/Invalid configuration:\n\s+PORT:/);
  });
});
