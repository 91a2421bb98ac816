import { describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config';
import { tracingTargetFromConfig } from './run-tracing';

const SELF = 'http://127.0.0.1:6301';

describe('tracingTargetFromConfig', () => {
  it('traces to the usage server of this process, over HTTP, once its URL is known', () => {
    const self: { url?: string } = {};
    const target = tracingTargetFromConfig(loadConfig({}), () => self.url);
    expect(target?.()).toBeUndefined();
    self.url = SELF;
    expect(target?.()).toEqual({
      apiUrl: `${SELF}/api/v1`,
      apiKey: 'lsv2_demo_admin',
      self: true,
    });
  });

  it('traces to LANGSMITH_ENDPOINT with LANGSMITH_API_KEY when set', () => {
    const config = loadConfig({
      LANGSMITH_ENDPOINT: 'https://api.smith.langchain.com/',
      LANGSMITH_API_KEY: 'lsv2_real',
    });
    expect(tracingTargetFromConfig(config, () => SELF)?.()).toEqual({
      apiUrl: 'https://api.smith.langchain.com',
      apiKey: 'lsv2_real',
      self: false,
    });
  });

  it.each(['false', '0'])('does not trace with DEPLOYMENT_TRACING=%s', (value) => {
    expect(tracingTargetFromConfig(loadConfig({ DEPLOYMENT_TRACING: value }), () => SELF)).toBe(
      undefined,
    );
  });
});
