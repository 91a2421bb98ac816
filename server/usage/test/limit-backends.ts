import { afterAll, beforeAll, beforeEach } from 'vitest';
import { freshStore, HAVE_SCALE_OUT_SERVERS, SKIP_REASON } from './contract/fresh-stores';
import { startTestServer, type TestServer } from './test-server';

/**
 * The backends the usage-limit acceptance tests run on, each behind the real server: the
 * embedded DuckDB file, and ClickHouse + Postgres (skipped, by name, without test servers).
 */
export const LIMIT_BACKENDS = [
  { name: 'duckdb', kind: 'duckdb', skip: false },
  {
    name: HAVE_SCALE_OUT_SERVERS ? 'clickhouse + postgres' : `clickhouse (skipped: ${SKIP_REASON})`,
    kind: 'clickhouse',
    skip: !HAVE_SCALE_OUT_SERVERS,
  },
] as const;

export type LimitBackend = (typeof LIMIT_BACKENDS)[number];

/** The server environment of a fresh store of `backend`, and how to drop it afterwards. */
export async function limitBackendEnv(
  backend: LimitBackend,
  label: string,
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  // DuckDB: the test server's own DATA_DIR is the store.
  if (backend.kind === 'duckdb') return { env: {}, drop: async () => undefined };
  const store = await freshStore('clickhouse', label);
  return { env: store.env, drop: store.drop };
}

/** The test server of one `useLimitServer` suite. */
export interface LimitServer {
  readonly baseUrl: string;
  /** Closes the server and starts it again on the same store and DATA_DIR. */
  restart: () => Promise<void>;
}

/**
 * One test server on a fresh store of `backend` for the enclosing suite: started before its first
 * test, closed (and the store dropped) after its last. On a backend whose test servers are absent
 * nothing starts and every test of the suite is skipped.
 */
export function useLimitServer(backend: LimitBackend, label: string): LimitServer {
  let server: TestServer | undefined;
  let store: Awaited<ReturnType<typeof limitBackendEnv>> | undefined;
  const running = () => {
    if (!server) throw new Error(`The ${label} test server is not running`);
    return server;
  };
  beforeAll(async () => {
    if (backend.skip) return;
    store = await limitBackendEnv(backend, label);
    server = await startTestServer(store.env);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await store?.drop();
  });
  beforeEach(({ skip }) => {
    if (backend.skip) skip();
  });
  return {
    get baseUrl() {
      return running().baseUrl;
    },
    restart: async () => {
      const previous = running();
      await previous.close({ keepData: true });
      // Not closed again by afterAll should the new start fail.
      server = undefined;
      server = await startTestServer(store?.env ?? {}, previous.dataDir);
    },
  };
}
