import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freshStore,
  HAVE_SCALE_OUT_SERVERS,
  SKIP_REASON,
} from '@server/usage/test/contract/fresh-stores';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  WITHOUT_DEVELOPER_SERVICES,
  type ServerProcess,
} from './server-process';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(async () => {
  await removeServerDataDirs();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A key made as an operator makes one (`npm run usage:create-key`), in the given store. */
async function createKey(env: Record<string, string>): Promise<string> {
  const created = await run(
    process.execPath,
    ['--import', 'tsx', 'server/usage/cli/create-key.ts', '--create-workspace', 'Team'],
    {
      cwd: process.cwd(),
      env: { ...process.env, ...WITHOUT_DEVELOPER_SERVICES, USAGE_CONSOLE_NO_DOTENV: '1', ...env },
    },
  );
  return /API key \(shown once\): (\S+)/.exec(created.stdout)?.[1] ?? '';
}

async function start(env: Record<string, string>, dataDir?: string) {
  const server = await startServerProcess(
    { CONSOLE_AUTH: 'apikey', USAGE_SEED: 'none', ...env },
    'node',
    dataDir,
  );
  return { server, url: (await readyUrl(server)).replace(/\/+$/, '') };
}

async function stop(server: ServerProcess) {
  server.child.kill('SIGTERM');
  await server.exited;
}

/** Signs in from the console's own page; returns the cookie a browser would send back. */
async function signIn(url: string, apiKey: string): Promise<string> {
  const response = await fetch(`${url}/_console/auth/sign-in`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey }),
  });
  expect(response.status).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

const readWorkspaces = (url: string, cookie: string) =>
  fetch(`${url}/_console/usage/workspaces`, { headers: { cookie } });

describe('console sessions live in the usage database', () => {
  it('survive a restart, and sign-out ends them', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'console-sessions-'));
    dirs.push(dataDir);
    const key = await createKey({ DATA_DIR: dataDir, USAGE_SEED: 'none' });
    expect(key).toMatch(/^lsv2_/);

    const first = await start({}, dataDir);
    const cookie = await signIn(first.url, key);
    expect((await readWorkspaces(first.url, cookie)).status).toBe(200);
    expect(first.server.output()).not.toContain(key);
    await stop(first.server);

    const second = await start({}, dataDir);
    try {
      const after = await readWorkspaces(second.url, cookie);
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual([expect.objectContaining({ display_name: 'Team' })]);
      await fetch(`${second.url}/_console/auth/sign-out`, {
        method: 'POST',
        headers: { origin: second.url, cookie },
      });
      expect((await readWorkspaces(second.url, cookie)).status).toBe(401);
    } finally {
      await stop(second.server);
    }
  }, 60_000);

  it.skipIf(!HAVE_SCALE_OUT_SERVERS)(
    `work on every replica of one database (ClickHouse + Postgres; skipped when ${SKIP_REASON})`,
    async () => {
      const store = await freshStore('clickhouse', 'console_sessions');
      try {
        const key = await createKey({ ...store.env, USAGE_SEED: 'none' });
        const [a, b] = await Promise.all([start(store.env), start(store.env)]);
        try {
          const cookie = await signIn(a.url, key);
          expect((await readWorkspaces(b.url, cookie)).status).toBe(200);
          await fetch(`${b.url}/_console/auth/sign-out`, {
            method: 'POST',
            headers: { origin: b.url, cookie },
          });
          expect((await readWorkspaces(a.url, cookie)).status).toBe(401);
        } finally {
          await Promise.all([stop(a.server), stop(b.server)]);
        }
      } finally {
        await store.drop();
      }
    },
    120_000,
  );
});
