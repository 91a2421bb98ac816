import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';

describe('METRICS_ENABLED and METRICS_PORT', () => {
  it.each([
    [{}, true, undefined],
    [{ METRICS_PORT: '' }, true, undefined],
    [{ METRICS_PORT: ' 9464 ' }, true, 9464],
    [{ METRICS_ENABLED: 'false' }, false, undefined],
    [{ METRICS_ENABLED: '0', METRICS_PORT: '9464' }, false, 9464],
  ])('%o: enabled %s, port %s', (env, enabled, port) => {
    const config = loadConfig(env);
    expect([config.METRICS_ENABLED, config.METRICS_PORT]).toEqual([enabled, port]);
  });

  it.each([
    [{ METRICS_PORT: 'metrics' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '0' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ METRICS_ENABLED: 'no' }, 'METRICS_ENABLED'],
  ])('rejects %o naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^\\s+${variable}:`, 'm'));
  });
});
