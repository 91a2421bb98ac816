import { describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config';
import { protectedModeVerdict } from './protected-mode';

const CLUSTER = { DATABASE_URI: 'postgres://u@db:5432/d', REDIS_URI: 'redis://cache:6379' };

describe('protectedModeVerdict', () => {
  it.each<[string, Record<string, string>]>([
    ['the default host', {}],
    ['localhost', { HOST: 'localhost' }],
    ['another loopback address', { HOST: '127.0.0.2' }],
    ['IPv6 loopback', { HOST: '::1' }],
    ['a public host with langsmith keys', { HOST: '0.0.0.0', LANGGRAPH_AUTH_TYPE: 'langsmith' }],
    [
      'a public host with custom auth',
      { HOST: '0.0.0.0', LANGGRAPH_AUTH: '{"path":"a.mts:auth"}' },
    ],
  ])('starts quietly on %s', (_name, env) => {
    expect(protectedModeVerdict(loadConfig(env))).toEqual({ start: true });
  });

  it.each<[string, Record<string, string>, string]>([
    ['all interfaces', { HOST: '0.0.0.0' }, 'on HOST=0.0.0.0'],
    ['a LAN address', { HOST: '192.168.1.20' }, 'on HOST=192.168.1.20'],
    ['cluster mode on loopback', CLUSTER, 'in cluster mode (REDIS_URI)'],
  ])('refuses %s while auth is unset, naming the variables', (_name, env, where) => {
    const verdict = protectedModeVerdict(loadConfig(env));
    expect(verdict.start).toBe(false);
    const message = 'message' in verdict ? verdict.message : '';
    expect(message).toContain(where);
    expect(message).toContain('LANGGRAPH_AUTH_TYPE=langsmith');
    expect(message).toContain('LANGGRAPH_AUTH_TYPE=noop');
  });

  it('starts with a warning when noop is chosen explicitly on an exposed host', () => {
    const verdict = protectedModeVerdict(loadConfig({ ...CLUSTER, LANGGRAPH_AUTH_TYPE: 'noop' }));
    expect(verdict).toEqual({ start: true, warning: expect.stringContaining('open') });
  });
});
