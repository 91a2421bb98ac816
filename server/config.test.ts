import { describe, expect, it } from 'vitest';
import { loadConfig, publicConfig } from './config';

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
  ])('rejects %o naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^\\s+${variable}:`, 'm'));
  });

  it('treats empty optional URLs as unset, as a copied .env.example leaves them', () => {
    const config = loadConfig({ LANGSMITH_ENDPOINT: '', LANGGRAPH_DEPLOYMENT_URL: ' ' });
    expect(publicConfig(config)).toMatchObject({
      usage: { source: 'embedded' },
      deployment: { source: 'embedded' },
    });
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
