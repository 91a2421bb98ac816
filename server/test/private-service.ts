import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A Redis or ClickHouse server of one fault test's own, started by scripts/services.sh in a
 * directory of its own: the suites' shared servers are never stopped or paused, so the other
 * tests running beside this one are not disturbed.
 */
export interface PrivateService {
  /** `REDIS_URI` or `CLICKHOUSE_URL` of the server. */
  readonly url: string;
  /** Kills the server (SIGKILL) and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, and waits until it answers. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections are accepted by the kernel, nothing is answered. */
  pause(): Promise<void>;
  /** Thaws a paused server (SIGCONT). */
  resume(): Promise<void>;
  /** Stops it and removes its data. */
  remove(): Promise<void>;
}

type Kind = 'redis' | 'clickhouse';

const processAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await sleep(100);
  }
  throw new Error(`${what} within ${timeoutMs} ms`);
}

/** Starts a private `kind` server; `remove()` it in `afterAll`. */
export async function startPrivateService(kind: Kind): Promise<PrivateService> {
  const servicesDir = await mkdtemp(path.join(tmpdir(), `usage-console-${kind}-fault-`));
  const env = { ...process.env, SERVICES_DIR: servicesDir };
  const { stdout } = await run('scripts/services.sh', ['start', kind], { env });
  const variable = kind === 'redis' ? 'REDIS_URI' : 'CLICKHOUSE_URL';
  const url = new RegExp(`${variable}=(\\S+)`).exec(stdout)?.[1];
  if (!url) throw new Error(`scripts/services.sh printed no ${variable}:\n${stdout}`);
  const dir = path.join(servicesDir, kind);
  const pidFile = path.join(dir, `${kind}.pid`);
  const pid = async () => Number((await readFile(pidFile, 'utf8')).trim());
  const port = new URL(url).port;

  const answers = async () => {
    if (kind === 'clickhouse') {
      return fetch(`${url}/ping`, { signal: AbortSignal.timeout(1_000) }).then(
        (response) => response.ok,
        () => false,
      );
    }
    return run('redis-cli', ['-p', port, 'ping'], { timeout: 1_000 }).then(
      ({ stdout: pong }) => pong.trim() === 'PONG',
      () => false,
    );
  };

  const startAgain = async () => {
    if (kind === 'redis') {
      await run('redis-server', [
        ...['--port', port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        ...['--daemonize', 'yes', '--dir', dir, '--pidfile', pidFile],
        ...['--logfile', path.join(dir, 'redis.log')],
      ]);
    } else {
      const args = [`--config-file=${path.join(dir, 'config.xml')}`, `--pid-file=${pidFile}`];
      // clickhouse-server refuses root: run it as its own user, as services.sh does.
      const asRoot = process.getuid?.() === 0;
      await run(
        asRoot ? 'runuser' : 'clickhouse-server',
        asRoot
          ? ['-u', 'clickhouse', '--', 'clickhouse-server', ...args, '--daemon']
          : [...args, '--daemon'],
        { cwd: dir },
      );
    }
    await until(`${kind} did not answer`, answers);
  };

  // Killed, as a crash or an OOM kill ends it (ClickHouse's own shutdown takes 10 s and more).
  const stop = async () => {
    const id = await pid();
    if (!processAlive(id)) return;
    process.kill(id, 'SIGKILL');
    await until(`${kind} did not die`, () => !processAlive(id), 5_000);
  };

  return {
    url,
    stop,
    start: startAgain,
    pause: async () => {
      process.kill(await pid(), 'SIGSTOP');
    },
    resume: async () => {
      process.kill(await pid(), 'SIGCONT');
    },
    async remove() {
      await pid().then(
        (id) => processAlive(id) && process.kill(id, 'SIGCONT'),
        () => undefined,
      );
      await run('scripts/services.sh', ['stop'], { env }).catch(() => undefined);
      await rm(servicesDir, { recursive: true, force: true });
    },
  };
}
