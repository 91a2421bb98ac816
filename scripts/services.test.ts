import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, 'services.sh');
const hasRedis = existsSync('/usr/bin/redis-server');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const services = (args: string[], env: Record<string, string>) =>
  run('bash', [SCRIPT, ...args], { env: { ...process.env, ...env } });

describe.skipIf(!hasRedis)('scripts/services.sh (skipped: redis-server not installed)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) {
      await services(['stop'], { SERVICES_DIR: dir }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts a server on the fixed port it is given, and refuses one already in use', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'services-fixed-'));
    dirs.push(dir);
    const port = await freePort();
    const started = await services(['start', 'redis'], {
      SERVICES_DIR: dir,
      REDIS_PORT: `${port}`,
    });
    expect(started.stdout.trim()).toBe(`export REDIS_URI=redis://127.0.0.1:${port}`);

    const other = await mkdtemp(path.join(tmpdir(), 'services-taken-'));
    dirs.push(other);
    const taken = services(['start', 'redis'], { SERVICES_DIR: other, REDIS_PORT: `${port}` });
    await expect(taken).rejects.toMatchObject({
      stderr: expect.stringContaining(`REDIS_PORT=${port} is in use`),
    });
  });

  it('keeps its data in a directory of its own checkout by default', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'services-checkouts-'));
    dirs.push(root);
    const dirOf = async (checkout: string) => {
      await mkdir(path.join(root, checkout, 'scripts'), { recursive: true });
      const copy = path.join(root, checkout, 'scripts', 'services.sh');
      await copyFile(SCRIPT, copy);
      const { stdout } = await run('bash', [copy, 'dir'], {
        env: { ...process.env, SERVICES_DIR: '' },
      });
      return stdout.trim();
    };
    const [first, second] = [await dirOf('main'), await dirOf('feature')];
    expect(first).toMatch(/\/usage-console-services-main-\d+$/);
    expect(second).toMatch(/\/usage-console-services-feature-\d+$/);
    expect(await dirOf('main')).toBe(first);
  });
});
