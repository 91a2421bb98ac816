import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageResponseSchema } from '@contracts/usage/usage-schema';
import { parsePrometheus, valueOf } from './prometheus-text';
import { startServerProcess, WITHOUT_DEVELOPER_SERVICES } from './server-process';
import { todayRange } from '@server/usage/test/ingest-helpers';
import { USAGE_PATH } from '@server/usage/test/test-server';
import { SF, userInput } from '@server/deployment/test/test-deployment';
import { createTestReplicas, replicaServicesMissing } from '@server/deployment/test/test-replicas';

const { TEST_CLICKHOUSE_URL } = process.env;

/**
 * docs/operations.md's replica recipe: Postgres + Redis + ClickHouse, each replica with its own
 * DATA_DIR, the usage service on ClickHouse + Postgres, runs traced (billed) by each replica.
 */
describe.skipIf(replicaServicesMissing || !TEST_CLICKHOUSE_URL)(
  'one bill for two replicas (skipped: TEST_DATABASE_URI, TEST_REDIS_URI or TEST_CLICKHOUSE_URL unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: 0 });
    const clickhouseDatabase = `usage_fleet_${randomBytes(6).toString('hex')}`;
    let usageEnv: Record<string, string> = {};
    let key = '';
    let workspace = '';

    /** `npm run -s usage:create-key` against the shared usage store, as the first-run recipe. */
    async function createKey() {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'fleet-billing-key-'));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          'server/usage/cli/create-key.ts',
          '--create-workspace',
          'Fleet',
          '--writer',
        ],
        {
          env: {
            ...process.env,
            USAGE_CONSOLE_NO_DOTENV: '1',
            ...WITHOUT_DEVELOPER_SERVICES,
            ...usageEnv,
            DATA_DIR: dataDir,
            LOG_LEVEL: 'silent',
          },
        },
      );
      await rm(dataDir, { recursive: true, force: true });
      key = /API key \(shown once\): (\S+)/.exec(stdout)?.[1] ?? '';
      workspace = /Workspace created: (\S+)/.exec(stdout)?.[1] ?? '';
      if (!key || !workspace) throw new Error(`create-key printed no key:\n${stdout}`);
    }

    /** Today's traces of the workspace, as one replica's usage API answers them. */
    async function traces(baseUrl: string) {
      const { start, end } = todayRange();
      const search = new URLSearchParams({ start_time: start, end_time: end, group_by: 'project' });
      search.append('workspace_ids', workspace);
      const response = await fetch(`${baseUrl}${USAGE_PATH}?${search}`, {
        headers: { 'x-api-key': key },
      });
      const body = usageResponseSchema.parse(await response.json());
      return body.usage.reduce((sum, record) => sum + record.traces, 0);
    }

    beforeAll(async () => {
      await cluster.createDatabase();
      usageEnv = {
        DATABASE_URI: cluster.databaseUri(),
        CLICKHOUSE_URL: TEST_CLICKHOUSE_URL ?? '',
        CLICKHOUSE_DATABASE: clickhouseDatabase,
        USAGE_SEED: 'none',
      };
      await createKey();
    });
    afterAll(async () => {
      await cluster.stop();
      await fetch(TEST_CLICKHOUSE_URL ?? '', {
        method: 'POST',
        body: `DROP DATABASE IF EXISTS ${clickhouseDatabase}`,
      });
    });

    it('two replicas show the same usage totals for runs made on either', async () => {
      const billing = {
        ...usageEnv,
        USAGE_CONSOLE_API_KEY: key,
        DEPLOYMENT_TRACING: 'true',
        REMOTE_METRICS_ROLLUP_ENABLED: 'true',
      };
      const [first, second] = await Promise.all([cluster.start(billing), cluster.start(billing)]);
      if (!first || !second) throw new Error('replicas did not start');
      const bases = cluster.urls.map((url) => url.replace(/\/deployment$/, ''));
      const runs = [first, first, first, second, second];
      for (const client of runs) {
        const { thread_id } = await client.threads.create();
        await client.runs.wait(thread_id, 'agent', { input: userInput(SF) });
      }
      // The tracer sends in batches: every run's trace arrives shortly after it.
      await expect
        .poll(() => Promise.all(bases.map(traces)), { timeout: 20_000, interval: 250 })
        .toEqual([runs.length, runs.length]);
    });

    it('shows each database client`s connections and the usage query latency on /metrics', async () => {
      const [base = ''] = cluster.urls.map((url) => url.replace(/\/deployment$/, ''));
      const scrape = async () => parsePrometheus(await (await fetch(`${base}/metrics`)).text());
      const count = { kind: 'traces', group_by: 'project' };
      const before = await scrape();
      await traces(base);
      await traces(base);
      const after = await scrape();
      expect(
        valueOf(after, 'usage_query_duration_seconds_count', count) -
          valueOf(before, 'usage_query_duration_seconds_count', count),
      ).toBe(2);
      const clients = [
        'deployment',
        'deployment_locks',
        'deployment_leases',
        'redis',
        'usage_postgres',
        'clickhouse_reads',
        'clickhouse_ingest',
      ];
      const opened = (samples: typeof after, client: string) =>
        valueOf(samples, 'db_client_connections', { client, state: 'total' });
      // Runs, traces and the queries above have used every client: each holds a connection.
      for (const client of clients) expect(opened(after, client), client).toBeGreaterThan(0);
      const states = (client: string) =>
        after
          .filter((sample) => sample.name === 'db_client_connections')
          .filter((sample) => sample.labels.client === client)
          .map((sample) => sample.labels.state);
      for (const client of clients) expect(states(client)).toEqual(['total', 'idle', 'waiting']);
    });

    it('refuses a replica that would bill into its own DuckDB, naming what to set', async () => {
      const refused = await startServerProcess({
        DATABASE_URI: cluster.databaseUri(),
        REDIS_URI: process.env.TEST_REDIS_URI ?? '',
        LANGGRAPH_AUTH_TYPE: 'noop',
      });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toMatch(/Set CLICKHOUSE_URL .* or LANGSMITH_ENDPOINT/);
    });
  },
);
