import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  WITHOUT_DEVELOPER_SERVICES,
} from './test/server-process';

const run = promisify(execFile);

afterAll(removeServerDataDirs);

describe('the server process', () => {
  it('prints its URL, answers /healthz, and stops cleanly on SIGTERM', async () => {
    const server = await startServerProcess({});
    const url = await readyUrl(server);
    const health = await fetch(`${url}healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('Stopped.');
  });

  it('refuses to start on bad configuration and names the variable', async () => {
    const server = await startServerProcess({ PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/Invalid configuration:\n\s+PORT:/);
  });

  it('`npm start` refuses a bad PORT at once, before building the SPA', async () => {
    const started = Date.now();
    const failed = await run('npm', ['start'], {
      env: {
        ...process.env,
        ...WITHOUT_DEVELOPER_SERVICES,
        USAGE_CONSOLE_NO_DOTENV: '1',
        PORT: 'abc',
      },
    }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/Invalid configuration:\n\s+PORT:/);
    // The build announces itself ("vite v8 building for production...") and takes many seconds.
    expect(`${failed?.stdout}${failed?.stderr}`).not.toMatch(/vite v\d|building/i);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
