import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { duckDbFile, openStore } from '@server/usage/store/open-usage-store';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  type ServerProcess,
} from './server-process';

afterAll(removeServerDataDirs);

/** Sends SIGTERM to the process and resolves with its exit code and how long it took. */
async function terminate(server: ServerProcess) {
  const started = performance.now();
  server.child.kill('SIGTERM');
  const code = await server.exited;
  return { code, ms: performance.now() - started };
}

/** Whether another process can take the DuckDB file (DuckDB locks it while a process has it). */
async function duckDbIsFree(dataDir: string) {
  const backend = await openStore({ kind: 'duckdb', file: duckDbFile(dataDir) });
  await backend.close();
  return true;
}

describe('stopping the server', () => {
  it('stops the server within 2 s, npm exiting 0, when npm (the pid of `npm start`) gets SIGTERM', async () => {
    const server = await startServerProcess({}, 'npm');
    const url = await readyUrl(server);
    expect((await fetch(`${url}healthz`)).status).toBe(200);

    const started = performance.now();
    server.child.kill('SIGTERM');
    // The server is gone once its port refuses connections. npm itself then takes its own time
    // to exit (1-2 s on a loaded machine, whatever the script), so it is not timed here.
    for (;;) {
      const answered = await fetch(`${url}healthz`).then(
        () => true,
        () => false,
      );
      if (!answered) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await server.exited).toBe(0);
    expect(await duckDbIsFree(server.dataDir)).toBe(true);
  });

  it('ends the start script by exec-ing the server as serve does, so npm signals reach it', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    const { start = '', serve = '' } = pkg.scripts;
    expect(serve).toMatch(/^exec node /);
    // The same command, after the build: the process npm signals is then the server itself.
    expect(start.endsWith(`&& ${serve}`)).toBe(true);
  });

  it('drains runs: a long join is released, queued runs do not start, databases close', async () => {
    const server = await startServerProcess({ DEMO_MODEL_STEP_MS: '60000' });
    const base = `${await readyUrl(server)}deployment`;
    const post = (pathname: string, body: unknown) =>
      fetch(`${base}${pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const input = { messages: [{ role: 'human', content: 'weather in sf?' }] };
    const thread = (await (await post('/threads', {})).json()) as { thread_id: string };
    const runs = `/threads/${thread.thread_id}/runs`;
    const run1 = (await (await post(runs, { assistant_id: 'agent', input })).json()) as {
      run_id: string;
    };
    const run2 = (await (
      await post(runs, { assistant_id: 'agent', input, multitask_strategy: 'enqueue' })
    ).json()) as { run_id: string };
    // A join that would wait a minute for run 1.
    const join = fetch(`${base}${runs}/${run1.run_id}/join`).then((r) => r.status);

    const { code, ms } = await terminate(server);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(2_000);
    expect(await join).toBe(200);
    expect(await duckDbIsFree(server.dataDir)).toBe(true);

    const db = new Database(path.join(server.dataDir, 'deployment.sqlite'), { readonly: true });
    const status = db.prepare<[string], { status: string }>(
      'SELECT status FROM runs WHERE run_id = ?',
    );
    expect(status.get(run1.run_id)?.status).toBe('interrupted');
    expect(status.get(run2.run_id)?.status).toBe('pending');
    db.close();
  });
});
