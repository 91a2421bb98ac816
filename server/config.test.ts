import { describe, expect, it } from 'vitest';
import { allowedHosts, loadConfig, localBaseUrl, publicConfig } from './config';

describe('loadConfig', () => {
  it('runs with no variables at all (offline defaults)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ HOST: '127.0.0.1', PORT: 5173, USAGE_DEPLOYMENT_MODE: 'cloud' });
    expect(config.DATA_DIR).toMatch(/\/data$/);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ USAGE_DEPLOYMENT_MODE: 'on-prem' }, 'USAGE_DEPLOYMENT_MODE'],
    [{ GRANULAR_USAGE_TABLE_ENABLED: 'yes' }, 'GRANULAR_USAGE_TABLE_ENABLED'],
    [{ LANGSMITH_ENDPOINT: 'api.smith.langchain.com' }, 'LANGSMITH_ENDPOINT'],
    [{ PORT: '' }, 'PORT'],
    [{ PORT: ' ' }, 'PORT'],
    [{ DEMO_MODEL_STEP_MS: '' }, 'DEMO_MODEL_STEP_MS'],
    [{ LANGGRAPH_DEPLOYMENT_URL: 'ftp://x' }, 'LANGGRAPH_DEPLOYMENT_URL'],
    [{ LANGSMITH_ENDPOINT: 'javascript:alert(1)' }, 'LANGSMITH_ENDPOINT'],
    [{ LANGSMITH_ENDPOINT: 'https://user:pw@api.example.com' }, 'LANGSMITH_ENDPOINT'],
    [{ LANGGRAPH_DEPLOYMENT_URL: 'https://token@x.example.com' }, 'LANGGRAPH_DEPLOYMENT_URL'],
    // The usage service on ClickHouse + Postgres: both or neither, well-formed.
    [{ CLICKHOUSE_URL: 'http://127.0.0.1:8123' }, 'DATABASE_URI'],
    [{ CLICKHOUSE_USER: 'usage' }, 'CLICKHOUSE_URL'],
    [{ CLICKHOUSE_DATABASE: 'usage' }, 'CLICKHOUSE_URL'],
    [{ CLICKHOUSE_URL: 'tcp://ch:9000', DATABASE_URI: 'postgres://h/db' }, 'CLICKHOUSE_URL'],
    [{ CLICKHOUSE_URL: 'http://u:p@ch:8123', DATABASE_URI: 'postgres://h/db' }, 'CLICKHOUSE_URL'],
    [{ CLICKHOUSE_URL: 'http://ch:8123', DATABASE_URI: 'mysql://h/db' }, 'DATABASE_URI'],
    [
      {
        CLICKHOUSE_URL: 'http://ch:8123',
        DATABASE_URI: 'postgres://h/db',
        CLICKHOUSE_DATABASE: 'a-b',
      },
      'CLICKHOUSE_DATABASE',
    ],
    [{ DATABASE_URI: 'mysql://db:3306/x' }, 'DATABASE_URI'],
    [{ DATABASE_URI: 'localhost:5432' }, 'DATABASE_URI'],
    [{ DATABASE_URI: 'postgres://db/x', REDIS_URI: 'http://cache' }, 'REDIS_URI'],
    [{ REDIS_URI: 'redis://cache:6379' }, 'REDIS_URI'],
    [{ WEBHOOKS_ENABLED: 'off' }, 'WEBHOOKS_ENABLED'],
    [{ WEBHOOK_ALLOW_PRIVATE_HOSTS: 'http://10.0.0.1' }, 'WEBHOOK_ALLOW_PRIVATE_HOSTS'],
    [{ WEBHOOK_ALLOW_PRIVATE_HOSTS: '10.0.0.0/33' }, 'WEBHOOK_ALLOW_PRIVATE_HOSTS'],
    [{ WEBHOOK_ALLOW_PRIVATE_HOSTS: 'hooks.internal/8' }, 'WEBHOOK_ALLOW_PRIVATE_HOSTS'],
  ])('rejects %o naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^\\s+${variable}:`, 'm'));
  });

  it('reads the webhook switch, signing secret and private hosts', () => {
    expect(loadConfig({})).toMatchObject({
      WEBHOOKS_ENABLED: true,
      WEBHOOK_ALLOW_PRIVATE_HOSTS: [],
    });
    const config = loadConfig({
      WEBHOOKS_ENABLED: 'false',
      WEBHOOK_SIGNING_SECRET: ' whsec ',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: 'Hooks.Internal, 10.0.0.0/8,::1,fd00::/8',
    });
    expect(config).toMatchObject({
      WEBHOOKS_ENABLED: false,
      WEBHOOK_SIGNING_SECRET: 'whsec',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: ['hooks.internal', '10.0.0.0/8', '::1', 'fd00::/8'],
    });
  });

  it('treats empty optional URLs as unset, as a copied .env.example leaves them', () => {
    const config = loadConfig({
      LANGSMITH_ENDPOINT: '',
      LANGGRAPH_DEPLOYMENT_URL: ' ',
      CLICKHOUSE_URL: '',
      CLICKHOUSE_USER: '',
      CLICKHOUSE_PASSWORD: '',
      CLICKHOUSE_DATABASE: '',
      DATABASE_URI: '',
    });
    expect(config.CLICKHOUSE_URL).toBeUndefined();
    expect(publicConfig(config)).toMatchObject({
      usage: { source: 'embedded' },
      deployment: { source: 'embedded' },
    });
  });

  it.each([
    [{}, 'duckdb'],
    [{ CLICKHOUSE_URL: 'http://127.0.0.1:8123', DATABASE_URI: 'postgres://u@h/db' }, 'clickhouse'],
    [{ LANGSMITH_ENDPOINT: 'https://api.smith.langchain.com' }, 'langsmith'],
  ])('names the backend that serves usage (%o: %s)', (env, backend) => {
    expect(publicConfig(loadConfig(env)).usage.backend).toBe(backend);
  });

  it('shows upstream URLs without query strings or fragments', () => {
    const config = loadConfig({
      LANGSMITH_ENDPOINT: 'https://api.example.com/base?api_key=s3cret#frag',
      LANGGRAPH_DEPLOYMENT_URL: 'http://127.0.0.1:2024/?token=s3cret',
    });
    expect(publicConfig(config)).toMatchObject({
      usage: { upstream: 'https://api.example.com/base' },
      deployment: { upstream: 'http://127.0.0.1:2024/' },
    });
  });

  it('answers to loopback names, HOST unless a wildcard, and ALLOWED_HOSTS', () => {
    expect([...allowedHosts(loadConfig({}))].sort()).toEqual(['127.0.0.1', '::1', 'localhost']);
    expect(allowedHosts(loadConfig({ HOST: '0.0.0.0' })).has('0.0.0.0')).toBe(false);
    const hosts = allowedHosts(
      loadConfig({ HOST: '10.0.0.5', ALLOWED_HOSTS: 'Console.Example, ' }),
    );
    expect(hosts.has('10.0.0.5')).toBe(true);
    expect(hosts.has('console.example')).toBe(true);
  });

  it('never puts a key in the public view', () => {
    const config = loadConfig({
      LANGSMITH_ENDPOINT: 'https://api.smith.langchain.com',
      LANGSMITH_API_KEY: 'lsv2_secret',
      LANGGRAPH_DEPLOYMENT_URL: 'https://example.invalid',
      LANGGRAPH_API_KEY: 'lg_secret',
    });
    const text = JSON.stringify(publicConfig(config));
    expect(text).not.toContain('secret');
    expect(text).not.toContain('lsv2_demo_admin');
  });
});

describe('localBaseUrl', () => {
  it.each([
    [{}, 'http://127.0.0.1:5173'],
    [{ PORT: '8080' }, 'http://127.0.0.1:8080'],
    [{ HOST: '0.0.0.0', PORT: '8080' }, 'http://127.0.0.1:8080'],
    [{ HOST: '::', PORT: '8080' }, 'http://127.0.0.1:8080'],
    [{ HOST: '::1', PORT: '8080' }, 'http://[::1]:8080'],
    [{ HOST: 'console.internal', PORT: '443' }, 'http://console.internal:443'],
  ])('reaches %j at %s', (env, url) => {
    expect(localBaseUrl(loadConfig(env))).toBe(url);
  });
});
