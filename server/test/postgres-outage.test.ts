import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  type ServerProcess,
} from './server-process';

const run = promisify(execFile);

/**
 * The backend suites' Postgres is shared with other suites and may not be restarted: this one
 * starts its own through scripts/services.sh, so it runs where those suites run.
 */
const HAVE_POSTGRES = Boolean(process.env.TEST_DATABASE_URI);
const CLICKHOUSE_URL = process.env.TEST_CLICKHOUSE_URL ?? '';

let servicesDir = '';
let databaseUri = '';

async function pgCtl(...args: string[]) {
  const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(a) - Number(b));
  const pgCtlPath = `/usr/lib/postgresql/${versions.at(-1) ?? ''}/bin/pg_ctl`;
  const dataDir = path.join(servicesDir, 'postgres', 'data');
  const pgArgs = ['-D', dataDir, '-w', ...args];
  // pg_ctl refuses root: run it as the server's own user, as services.sh does.
  await (process.getuid?.() === 0
    ? run('runuser', ['-u', 'postgres', '--', pgCtlPath, ...pgArgs])
    : run(pgCtlPath, pgArgs));
}

/** A fresh thread through the deployment API: the round trip that needs Postgres. */
async function createThread(url: string) {
  const response = await fetch(`${url}deployment/threads`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(10_000),
  });
  return response.status;
}

/** Creates threads until one succeeds (the pool replaces its dead connections on demand). */
async function createThreadAfterRecovery(url: string) {
  const deadline = Date.now() + 15_000;
  let status = 0;
  while (Date.now() < deadline) {
    status = await createThread(url).catch(() => 0);
    if (status === 200) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return status;
}

async function survivesRestart(server: ServerProcess) {
  const url = await readyUrl(server);
  expect(await createThread(url)).toBe(200);
  let exitCode: number | null | 'alive' = 'alive';
  void server.exited.then((code) => (exitCode = code));

  await pgCtl('restart', '-m', 'fast', '-l', path.join(servicesDir, 'postgres', 'postgres.log'));
  // The pools learn of the restart when their idle connections are dropped: give them that moment.
  await new Promise((resolve) => setTimeout(resolve, 1_000));

  expect(exitCode, server.output()).toBe('alive');
  expect(await createThreadAfterRecovery(url)).toBe(200);
  expect((await fetch(`${url}healthz`)).status).toBe(200);
  expect(exitCode, server.output()).toBe('alive');
  // Each dropped connection is one line, not a stack trace.
  expect(server.output()).toMatch(/database: terminating connection due to administrator command/);
  expect(server.output()).not.toMatch(/^\s+at /m);
}

describe.skipIf(!HAVE_POSTGRES)('a Postgres restart under a running server', () => {
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    servicesDir = await mkdtemp(path.join(tmpdir(), 'usage-console-restart-'));
    const { stdout } = await run('scripts/services.sh', ['start', 'postgres'], {
      env: { ...process.env, SERVICES_DIR: servicesDir },
    });
    databaseUri = /DATABASE_URI=(\S+)/.exec(stdout)?.[1] ?? '';
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await run('scripts/services.sh', ['stop'], {
      env: { ...process.env, SERVICES_DIR: servicesDir },
    }).catch(() => undefined);
    await rm(servicesDir, { recursive: true, force: true });
    await removeServerDataDirs();
  });

  it('keeps the deployment on Postgres alive, and it answers again once Postgres is back', async () => {
    const server = await startServerProcess({ DATABASE_URI: databaseUri });
    servers.push(server);
    await survivesRestart(server);
  }, 60_000);

  it('answers 503 with Retry-After while Postgres is stopped, and 200 again once it is back', async () => {
    const server = await startServerProcess({ DATABASE_URI: databaseUri });
    servers.push(server);
    const url = await readyUrl(server);
    expect(await createThread(url)).toBe(200);
    const port = new URL(databaseUri).port;
    await pgCtl('stop', '-m', 'fast');
    try {
      const started = performance.now();
      const refused = await fetch(`${url}deployment/threads`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/postgres/);

      const health = await fetch(`${url}healthz`, { signal: AbortSignal.timeout(5_000) });
      expect(health.status).toBe(503);
      const body = (await health.json()) as {
        status: string;
        dependencies: Record<string, string>;
      };
      expect(body.status).toBe('unavailable');
      expect(body.dependencies.postgres).toMatch(/^down: /);
    } finally {
      const options = `-p ${port} -k ${path.join(servicesDir, 'postgres')} -c listen_addresses=127.0.0.1 -c fsync=off`;
      await pgCtl('start', '-l', path.join(servicesDir, 'postgres', 'postgres.log'), '-o', options);
    }
    expect(await createThreadAfterRecovery(url)).toBe(200);
    const health = await fetch(`${url}healthz`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
  }, 60_000);

  it.skipIf(!CLICKHOUSE_URL)(
    'keeps the usage service on ClickHouse + Postgres alive, and it answers again',
    async () => {
      const server = await startServerProcess({
        DATABASE_URI: databaseUri,
        CLICKHOUSE_URL,
        CLICKHOUSE_DATABASE: `restart_${process.pid}`,
      });
      servers.push(server);
      await survivesRestart(server);
    },
    60_000,
  );
});
