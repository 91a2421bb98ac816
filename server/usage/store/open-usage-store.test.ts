import { describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config';
import { backendChoice } from './open-usage-store';

describe('backendChoice', () => {
  it('keeps the embedded DuckDB file when no ClickHouse is configured', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/x', DATABASE_URI: 'postgres://pg/app' });
    expect(backendChoice(config)).toEqual({ kind: 'duckdb', file: '/tmp/x/usage.duckdb' });
  });

  it('picks ClickHouse + Postgres from CLICKHOUSE_* and DATABASE_URI', () => {
    const config = loadConfig({
      CLICKHOUSE_URL: 'https://ch.example:8443',
      CLICKHOUSE_USER: 'usage',
      CLICKHOUSE_PASSWORD: 'secret',
      DATABASE_URI: 'postgres://u:p@pg.example:5432/app',
    });
    expect(backendChoice(config)).toEqual({
      kind: 'clickhouse',
      clickhouse: {
        url: 'https://ch.example:8443',
        username: 'usage',
        password: 'secret',
        database: 'usage',
      },
      databaseUri: 'postgres://u:p@pg.example:5432/app',
    });
  });
});
