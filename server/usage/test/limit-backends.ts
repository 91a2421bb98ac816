import { freshStore, HAVE_SCALE_OUT_SERVERS, SKIP_REASON } from './contract/fresh-stores';

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
