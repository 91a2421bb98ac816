import { afterAll, describe, expect, it } from 'vitest';
import { freePort as closedPort, removeServerDataDirs, startServerProcess } from './server-process';

afterAll(removeServerDataDirs);

/** The one Postgres the suites may use (scripts/with-test-services.sh), reachable by definition. */
const TEST_DATABASE_URI = process.env.TEST_DATABASE_URI || undefined;

/** Starts the server with `env` (and a demo dataset to load) and waits for it to give up. */
async function startAndFail(env: Record<string, string>) {
  const started = Date.now();
  // The demo dataset is what made a bad address cost minutes: the check must come before it.
  const server = await startServerProcess({ USAGE_SEED: 'demo', ...env });
  const code = await server.exited;
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');
  return { code, ms: Date.now() - started, lines, output: server.output() };
}

const STACK_FRAME = /^\s*at /m;

describe('starting with a backend nobody answers on', () => {
  it('names DATABASE_URI and its address, password hidden, in one line within 10 s', async () => {
    const port = await closedPort();
    const result = await startAndFail({
      DATABASE_URI: `postgres://console:hunter2@127.0.0.1:${port}/console`,
    });
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(10_000);
    expect(result.lines).toEqual([
      `Cannot reach DATABASE_URI (postgres://console:***@127.0.0.1:${port}/console): connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
    expect(result.output).not.toContain('hunter2');
    expect(result.output).not.toMatch(STACK_FRAME);
  });

  it('names every unreachable variable, one line each, when none answers', async () => {
    const [postgres, redis, clickhouse] = [
      await closedPort(),
      await closedPort(),
      await closedPort(),
    ];
    const result = await startAndFail({
      DATABASE_URI: `postgres://console@127.0.0.1:${postgres}/console`,
      REDIS_URI: `redis://:hunter2@127.0.0.1:${redis}`,
      CLICKHOUSE_URL: `http://127.0.0.1:${clickhouse}`,
      CLICKHOUSE_PASSWORD: 'hunter2',
    });
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(10_000);
    expect(result.lines).toEqual([
      expect.stringMatching(
        new RegExp(`^Cannot reach DATABASE_URI \\(.*:${postgres}/console\\): `),
      ),
      expect.stringMatching(
        new RegExp(`^Cannot reach REDIS_URI \\(redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis}\\): `),
      ),
      expect.stringMatching(
        new RegExp(`^Cannot reach CLICKHOUSE_URL \\(http://127\\.0\\.0\\.1:${clickhouse}/\\): `),
      ),
    ]);
    expect(result.output).not.toContain('hunter2');
    expect(result.output).not.toMatch(STACK_FRAME);
  });

  // Redis and ClickHouse are only used beside a Postgres, which must answer for them to be the
  // one line printed.
  describe.skipIf(!TEST_DATABASE_URI)('beside a reachable Postgres', () => {
    it.each([
      ['REDIS_URI', (port: number) => ({ REDIS_URI: `redis://127.0.0.1:${port}` }), 'redis://'],
      [
        'CLICKHOUSE_URL',
        (port: number) => ({ CLICKHOUSE_URL: `http://127.0.0.1:${port}` }),
        'http://',
      ],
    ])('names %s and its address in one line within 10 s', async (variable, env, scheme) => {
      const port = await closedPort();
      const result = await startAndFail({ DATABASE_URI: TEST_DATABASE_URI ?? '', ...env(port) });
      expect(result.code).toBe(1);
      expect(result.ms).toBeLessThan(10_000);
      expect(result.lines).toEqual([
        `Cannot reach ${variable} (${scheme}127.0.0.1:${port}${scheme === 'http://' ? '/' : ''}): connect ECONNREFUSED 127.0.0.1:${port}`,
      ]);
      expect(result.output).not.toMatch(STACK_FRAME);
    });
  });
});
