import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ServerProcess {
  child: ChildProcess;
  dataDir: string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  output: () => string;
}

const dataDirs: string[] = [];

/**
 * The developer's services (scripts/services.sh exports CLICKHOUSE_URL, DATABASE_URI and
 * REDIS_URI) are not the tests' to use: without them the usage service stays on DuckDB and the
 * deployment on SQLite in one process. A test that wants them passes them in its `env`.
 */
export const WITHOUT_DEVELOPER_SERVICES = {
  DATABASE_URI: '',
  REDIS_URI: '',
  CLICKHOUSE_URL: '',
  CLICKHOUSE_USER: '',
  CLICKHOUSE_PASSWORD: '',
  CLICKHOUSE_DATABASE: '',
};

/** Removes every data directory `startServerProcess` made; call from `afterAll`. */
export async function removeServerDataDirs() {
  await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * Starts the server as an operator would: `node server/main.ts`, or through npm (`npm run serve`,
 * the command `npm start` ends in) so signals reach it the way they do in production. Empty
 * database, any free port, no `.env`.
 */
export async function startServerProcess(
  env: Record<string, string>,
  how: 'node' | 'npm' = 'node',
  dataDir?: string,
): Promise<ServerProcess> {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'usage-console-main-')));
  if (!dataDir) dataDirs.push(dir);
  const [command, args] =
    how === 'npm'
      ? ['npm', ['run', '--silent', 'serve']]
      : [process.execPath, ['--import', 'tsx', 'server/main.ts']];
  const child = spawn(command, args, {
    env: {
      ...process.env,
      USAGE_CONSOLE_NO_DOTENV: '1',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dir,
      USAGE_SEED: 'none',
      LOG_LEVEL: 'silent',
      ...WITHOUT_DEVELOPER_SERVICES,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, dataDir: dir, exited, output: () => output };
}

/** Stops `servers` with SIGTERM, waits for each to exit, then removes their data directories. */
export async function stopServerProcesses(servers: readonly ServerProcess[]) {
  servers.forEach((server) => server.child.kill('SIGTERM'));
  await Promise.all(servers.map((server) => server.exited));
  await removeServerDataDirs();
}

export async function waitFor<T>(probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
}

/** The URL the server printed once it listens. */
export function readyUrl(server: ServerProcess): Promise<string> {
  return waitFor(() => /ready: (http:\/\/\S+)/.exec(server.output())?.[1]);
}

/**
 * A port on 127.0.0.1 nothing listens on: taken from the OS, then let go. Free for a server to
 * take next, or closed for a client to be refused on.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}
