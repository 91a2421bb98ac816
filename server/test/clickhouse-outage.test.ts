import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageResponseSchema } from '@contracts/usage/usage-schema';
import { sdkRootRun, todayRange } from '@server/usage/test/ingest-helpers';
import { createTestDatabase, dropTestDatabase } from '@server/usage/test/postgres-test-database';
import { USAGE_PATH } from '@server/usage/test/test-server';
import { startPrivateService, type PrivateService } from './private-service';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  WITHOUT_DEVELOPER_SERVICES,
  type ServerProcess,
} from './server-process';

const { TEST_DATABASE_URI } = process.env;

/** What ingestion may take to answer while ClickHouse is away. */
const OUTAGE_ANSWER_MS = 5_000;

interface Sent {
  ids: string[];
  status: number;
  ms: number;
  retryAfter: string | null;
  detail: string;
}

/**
 * The usage service on ClickHouse + Postgres while its ClickHouse is stopped, then frozen
 * (SIGSTOP): SDK-shaped batches keep arriving, each refused one is sent again once ClickHouse is
 * back (as the SDK retries), and the traces stored are compared with those acknowledged.
 */
describe.skipIf(!TEST_DATABASE_URI)('ingestion while ClickHouse is stopped or hung', () => {
  const databaseName = `usage_chfault_${randomBytes(4).toString('hex')}`;
  const clickhouseDatabase = `chfault_${randomBytes(4).toString('hex')}`;
  let clickhouse: PrivateService;
  let server: ServerProcess;
  let url = '';
  let key = '';
  let workspace = '';
  let exitCode: number | null | 'alive' = 'alive';
  const acknowledged = new Set<string>();

  beforeAll(async () => {
    clickhouse = await startPrivateService('clickhouse');
    const usageEnv = {
      DATABASE_URI: await createTestDatabase(databaseName),
      CLICKHOUSE_URL: clickhouse.url,
      CLICKHOUSE_DATABASE: clickhouseDatabase,
    };
    const keyDir = await mkdtemp(path.join(tmpdir(), 'clickhouse-outage-key-'));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'server/usage/cli/create-key.ts',
        '--create-workspace',
        'Faults',
        '--writer',
      ],
      {
        env: {
          ...process.env,
          USAGE_CONSOLE_NO_DOTENV: '1',
          ...WITHOUT_DEVELOPER_SERVICES,
          ...usageEnv,
          USAGE_SEED: 'none',
          DATA_DIR: keyDir,
          LOG_LEVEL: 'silent',
        },
      },
    );
    await rm(keyDir, { recursive: true, force: true });
    key = /API key \(shown once\): (\S+)/.exec(stdout)?.[1] ?? '';
    workspace = /Workspace created: (\S+)/.exec(stdout)?.[1] ?? '';
    if (!key || !workspace) throw new Error(`create-key printed no key:\n${stdout}`);
    server = await startServerProcess(usageEnv);
    void server.exited.then((code) => (exitCode = code));
    url = await readyUrl(server);
  }, 60_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await clickhouse?.remove();
    await dropTestDatabase(databaseName).catch(() => undefined);
    await removeServerDataDirs();
  });

  /** One SDK-shaped batch of `ids` as root runs; acknowledged ids are remembered. */
  async function send(ids: string[]): Promise<Sent> {
    const started = performance.now();
    const response = await fetch(`${url}api/v1/runs/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ post: ids.map((id) => sdkRootRun(id, 'faults')) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (response.status === 202) ids.forEach((id) => acknowledged.add(id));
    return {
      ids,
      status: response.status,
      ms: performance.now() - started,
      retryAfter: response.headers.get('retry-after'),
      detail: text,
    };
  }

  const batch = () => Array.from({ length: 5 }, () => randomUUID());

  /** Sends fresh batches one after another (as a traced application) until `stop` is called. */
  function keepSending() {
    const answers: Sent[] = [];
    let running = true;
    const done = (async () => {
      while (running) {
        answers.push(await send(batch()));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    return {
      answers,
      stop: async () => {
        running = false;
        await done;
        return answers;
      },
    };
  }

  /** Sends a refused batch again until it is acknowledged, as the SDK retries. */
  async function resendUntilAcknowledged(ids: string[]) {
    const deadline = Date.now() + 30_000;
    let last: Sent | undefined;
    while (Date.now() < deadline) {
      last = await send(ids);
      if (last.status === 202) return;
      expect([503], last.detail).toContain(last.status);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`batch never acknowledged: ${last?.status} ${last?.detail}`);
  }

  async function health() {
    const started = performance.now();
    const response = await fetch(`${url}healthz`, { signal: AbortSignal.timeout(10_000) });
    const body = (await response.json()) as { dependencies?: Record<string, string> };
    return { status: response.status, ms: performance.now() - started, body };
  }

  /** Each stored trace's run id, with how many rows it has, read from ClickHouse itself. */
  async function storedTraces(): Promise<Map<string, number>> {
    const query = `SELECT toString(run_id), count() FROM ${clickhouseDatabase}.traces GROUP BY run_id FORMAT TabSeparated`;
    const response = await fetch(clickhouse.url, { method: 'POST', body: query });
    const text = await response.text();
    if (!response.ok) throw new Error(text);
    return new Map(
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t'))
        .map(([id = '', count = '0']) => [id, Number(count)]),
    );
  }

  /** The traces the usage API counts today for the workspace. */
  async function billedToday() {
    const { start, end } = todayRange();
    const search = new URLSearchParams({ start_time: start, end_time: end, group_by: 'project' });
    search.append('workspace_ids', workspace);
    const response = await fetch(`${url}${USAGE_PATH.slice(1)}?${search}`, {
      headers: { 'x-api-key': key },
    });
    const body = usageResponseSchema.parse(await response.json());
    return body.usage.reduce((sum, record) => sum + record.traces, 0);
  }

  /** Lost and doubled acknowledged traces, and stored traces never acknowledged. */
  async function reconcile() {
    const stored = await storedTraces();
    const lost = [...acknowledged].filter((id) => !stored.has(id)).length;
    const doubled = [...stored.values()].reduce((sum, rows) => sum + rows - 1, 0);
    const unacknowledged = [...stored.keys()].filter((id) => !acknowledged.has(id)).length;
    return { lost, doubled, unacknowledged, billed: await billedToday() };
  }

  /** Runs the fault under a steady stream of batches and checks every answer given during it. */
  async function underFault(fault: () => Promise<void>, recover: () => Promise<void>) {
    expect((await send(batch())).status).toBe(202);
    const sender = keepSending();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await fault();
    // Long enough for a hung insert to pass every timeout on the way.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const during = await send(batch());
    const probe = await health();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await recover();
    const answers = await sender.stop();
    answers.push(during);

    expect(exitCode, server.output()).toBe('alive');
    // A refusal is a 503 that says when to retry and names ClickHouse, given within the bound.
    expect(during.status, during.detail).toBe(503);
    expect(during.detail).toMatch(/clickhouse/i);
    for (const answer of answers) {
      expect([202, 503], answer.detail).toContain(answer.status);
      if (answer.status === 503) {
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        expect(answer.ms).toBeLessThan(OUTAGE_ANSWER_MS);
      }
    }
    expect(probe.ms).toBeLessThan(OUTAGE_ANSWER_MS);
    expect(probe.status).toBe(503);
    expect(probe.body.dependencies?.clickhouse).toMatch(/^down: /);

    for (const answer of answers.filter((sent) => sent.status !== 202)) {
      await resendUntilAcknowledged(answer.ids);
    }
    // A retry of a batch whose answer was lost bills nothing more.
    const [firstAcknowledged] = answers.filter((sent) => sent.status === 202);
    if (firstAcknowledged) expect((await send(firstAcknowledged.ids)).status).toBe(202);

    expect((await health()).status).toBe(200);
    const { lost, doubled, unacknowledged, billed } = await reconcile();
    expect({ lost, doubled, unacknowledged }).toEqual({ lost: 0, doubled: 0, unacknowledged: 0 });
    expect(billed).toBe(acknowledged.size);
    expect(exitCode, server.output()).toBe('alive');
    expect(server.output()).not.toMatch(/^\s+at /m);
  }

  it('answers 503 with Retry-After while ClickHouse is stopped, and bills every trace once after', async () => {
    await underFault(
      () => clickhouse.stop(),
      () => clickhouse.start(),
    );
  }, 60_000);

  it('answers 503 with Retry-After while ClickHouse hangs (SIGSTOP), and bills every trace once after', async () => {
    await underFault(
      () => clickhouse.pause(),
      () => clickhouse.resume(),
    );
  }, 60_000);
});
