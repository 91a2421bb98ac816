import { afterAll, describe, expect, it } from 'vitest';
import { readyUrl, removeServerDataDirs, startServerProcess } from './test/server-process';

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
});
