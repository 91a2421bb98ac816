import { describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config';
import { fleetBillingRefusal } from './fleet-billing';

const CLUSTER = { DATABASE_URI: 'postgres://u@db:5432/d', REDIS_URI: 'redis://cache:6379' };

describe('one bill for a fleet', () => {
  it.each([
    ['one process on embedded files', {}, false],
    ['one process on Postgres', { DATABASE_URI: CLUSTER.DATABASE_URI }, false],
    ['cluster mode billing into each replica`s DuckDB', CLUSTER, true],
    ['cluster mode tracing only', { ...CLUSTER, REMOTE_METRICS_ROLLUP_ENABLED: 'false' }, true],
    ['cluster mode metering only', { ...CLUSTER, DEPLOYMENT_TRACING: 'false' }, true],
    ['cluster mode on ClickHouse', { ...CLUSTER, CLICKHOUSE_URL: 'http://ch:8123' }, false],
    ['cluster mode billing in LangSmith', { ...CLUSTER, LANGSMITH_ENDPOINT: 'https://ls' }, false],
    [
      'cluster mode billing nothing',
      { ...CLUSTER, DEPLOYMENT_TRACING: 'false', REMOTE_METRICS_ROLLUP_ENABLED: 'false' },
      false,
    ],
  ])('%s: refused %s', (_, env, refused) => {
    const refusal = fleetBillingRefusal(loadConfig(env));
    expect(refusal !== undefined).toBe(refused);
    if (refused) expect(refusal).toMatch(/Set CLICKHOUSE_URL .* or LANGSMITH_ENDPOINT/);
  });
});
