import { randomBytes } from 'node:crypto';
import { Client } from '@langchain/langgraph-sdk';
import pg from 'pg';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  type ServerProcess,
} from '@server/test/server-process';

const { TEST_DATABASE_URI, TEST_REDIS_URI } = process.env;

/** Whether the services a replica test needs are there (scripts/with-test-services.sh). */
export const replicaServicesMissing = !TEST_DATABASE_URI || !TEST_REDIS_URI;

/**
 * Server processes in cluster mode on a database of their own (created here, dropped by
 * `stop`) and the test Redis: `start()` adds a replica and answers an SDK client for it.
 */
export function createTestReplicas(options: { leaseMs: number; stepMs: number }) {
  const database = `deployment_replicas_${randomBytes(6).toString('hex')}`;
  const replicas: ServerProcess[] = [];
  /** Each started replica's deployment API base URL, in start order. */
  const urls: string[] = [];
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URI });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  const databaseUri = () => {
    const url = new URL(TEST_DATABASE_URI ?? '');
    url.pathname = `/${database}`;
    return url.toString();
  };

  return {
    replicas,
    urls,
    /** The replicas' own database (the usage service's schema may share it). */
    databaseUri,
    async createDatabase() {
      await admin(`CREATE DATABASE ${database}`);
    },

    async query<T extends pg.QueryResultRow>(sql: string, values: unknown[]) {
      const client = new pg.Client({ connectionString: databaseUri() });
      await client.connect();
      return (await client.query<T>(sql, values).finally(() => client.end())).rows;
    },

    /** Starts a replica; `env` adds or overrides its variables. */
    async start(env: Record<string, string> = {}): Promise<Client> {
      const replica = await startServerProcess({
        DATABASE_URI: databaseUri(),
        REDIS_URI: TEST_REDIS_URI ?? '',
        DEPLOYMENT_RUN_LEASE_MS: String(options.leaseMs),
        DEMO_MODEL_STEP_MS: String(options.stepMs),
        // Each replica would bill into its own DuckDB, which cluster mode refuses: no billing here.
        DEPLOYMENT_TRACING: 'false',
        REMOTE_METRICS_ROLLUP_ENABLED: 'false',
        // Cluster mode refuses to start open unless told: these tests mean it (env may override).
        LANGGRAPH_AUTH_TYPE: 'noop',
        ...env,
      });
      replicas.push(replica);
      const ready = await readyUrl(replica).catch((error: unknown) => {
        throw new Error(`replica did not start: ${String(error)}\n${replica.output()}`);
      });
      const apiUrl = `${ready}deployment`;
      urls.push(apiUrl);
      return new Client({ apiUrl, callerOptions: { maxRetries: 0 } });
    },

    async stop() {
      replicas.forEach((replica) => replica.child.kill('SIGKILL'));
      await Promise.all(replicas.map((replica) => replica.exited));
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await removeServerDataDirs();
    },
  };
}
