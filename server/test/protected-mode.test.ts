import { afterAll, describe, expect, it } from 'vitest';
import { readyUrl, removeServerDataDirs, startServerProcess } from './server-process';

afterAll(removeServerDataDirs);

const OPEN_WARNING = 'Warning: the deployment API is open';

describe('a server other machines can reach', () => {
  it('refuses to start while the deployment API is open by default, naming the variables', async () => {
    const server = await startServerProcess({ HOST: '0.0.0.0' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Refusing to start');
    expect(server.output()).toContain('LANGGRAPH_AUTH_TYPE=langsmith');
    expect(server.output()).toContain('LANGGRAPH_AUTH_TYPE=noop');
    expect(server.output()).not.toContain('ready:');
  });

  it('starts with one warning line when LANGGRAPH_AUTH_TYPE=noop is set explicitly', async () => {
    const server = await startServerProcess({
      HOST: '0.0.0.0',
      LANGGRAPH_AUTH_TYPE: 'noop',
      CONSOLE_AUTH: 'none',
    });
    const url = await readyUrl(server);
    const port = new URL(url).port;
    const ok = await fetch(`http://127.0.0.1:${port}/deployment/ok`);
    expect(ok.status).toBe(200);
    expect(
      server
        .output()
        .split('\n')
        .filter((line) => line.includes(OPEN_WARNING)),
    ).toHaveLength(1);
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('starts on loopback with nothing set, without a warning, and the API answers without a key', async () => {
    const server = await startServerProcess({});
    const url = await readyUrl(server);
    expect((await fetch(`${url}deployment/threads/search`, { method: 'POST' })).status).toBe(200);
    expect(server.output()).not.toContain(OPEN_WARNING);
    server.child.kill('SIGTERM');
    await server.exited;
  });
});

describe('custom auth', () => {
  it('protects a server on any host, and a bad LANGGRAPH_AUTH stops it with a message', async () => {
    const server = await startServerProcess({
      HOST: '0.0.0.0',
      LANGGRAPH_AUTH: '{"path":',
      CONSOLE_AUTH: 'apikey',
    });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('LANGGRAPH_AUTH must be JSON');
    expect(server.output()).not.toContain('Refusing to start');
  });
});

describe('the console off loopback', () => {
  it('refuses to start without CONSOLE_AUTH, naming the variable', async () => {
    const server = await startServerProcess({ HOST: '0.0.0.0', LANGGRAPH_AUTH_TYPE: 'langsmith' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('CONSOLE_AUTH=apikey');
    expect(server.output()).not.toContain('ready:');
  });

  it('starts with one warning line when CONSOLE_AUTH=none is set explicitly', async () => {
    const server = await startServerProcess({
      HOST: '0.0.0.0',
      LANGGRAPH_AUTH_TYPE: 'langsmith',
      CONSOLE_AUTH: 'none',
    });
    await readyUrl(server);
    const warnings = server
      .output()
      .split('\n')
      .filter((line) => line.includes('CONSOLE_AUTH=none'));
    expect(warnings).toHaveLength(1);
    server.child.kill('SIGTERM');
    await server.exited;
  });
});
