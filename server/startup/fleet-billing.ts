import type { Config } from '@server/config';

type BillingConfig = Pick<
  Config,
  | 'REDIS_URI'
  | 'CLICKHOUSE_URL'
  | 'LANGSMITH_ENDPOINT'
  | 'DEPLOYMENT_TRACING'
  | 'REMOTE_METRICS_ROLLUP_ENABLED'
>;

/**
 * Why a replica must not start with this billing setup, or `undefined` when it may. Each replica
 * bills its runs (traces and deployment metrics) into the usage service of its own process; on
 * the embedded DuckDB file that is a store per replica, and a load balancer would show a
 * different bill at each request. Cluster mode therefore needs the usage service on shared
 * servers (ClickHouse + Postgres) or LangSmith, unless it bills nothing.
 */
export function fleetBillingRefusal(config: BillingConfig): string | undefined {
  if (!config.REDIS_URI || config.CLICKHOUSE_URL || config.LANGSMITH_ENDPOINT) return undefined;
  if (!config.DEPLOYMENT_TRACING && !config.REMOTE_METRICS_ROLLUP_ENABLED) return undefined;
  return [
    "Cluster mode (REDIS_URI) would bill each replica's runs into its own DATA_DIR/usage.duckdb,",
    'so the replicas would show different usage. Set CLICKHOUSE_URL (the usage service on',
    'ClickHouse + DATABASE_URI, one store for every replica), or LANGSMITH_ENDPOINT to bill in',
    'LangSmith; or bill nothing: DEPLOYMENT_TRACING=false and REMOTE_METRICS_ROLLUP_ENABLED=false.',
  ].join(' ');
}
