import { describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';

function appLogging(level: string) {
  const lines: string[] = [];
  const app = createApp({
    config: loadConfig({ LOG_LEVEL: level }),
    services: [],
    logSink: (line) => lines.push(line),
  });
  return { app, lines };
}

describe('request logs', () => {
  it('info: one JSON line per request with method, path, status and time, never a key', async () => {
    const { app, lines } = appLogging('info');
    await app.request('/healthz?probe=1', { headers: { 'x-api-key': 'lsv2_secret' } });
    await app.request('/api/v1/nope', { method: 'POST' });
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({ level: 'info', method: 'GET', path: '/healthz', status: 200 });
    expect(first?.ms).toEqual(expect.any(Number));
    expect(first).not.toHaveProperty('query');
    expect(second).toMatchObject({ method: 'POST', path: '/api/v1/nope', status: 404 });
    expect(lines.join('\n')).not.toContain('lsv2_secret');
  });

  it('debug: adds the query string and sizes', async () => {
    const { app, lines } = appLogging('debug');
    await app.request('/healthz?probe=1', { headers: { 'x-api-key': 'lsv2_secret' } });
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      path: '/healthz',
      query: '?probe=1',
      has_api_key: true,
    });
    expect(lines.join('\n')).not.toContain('lsv2_secret');
  });

  it('debug: leaves out the query of sign-in addresses (an authorization code)', async () => {
    const { app, lines } = appLogging('debug');
    await app.request('/_console/auth/callback?code=secret-code&state=s1');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      path: '/_console/auth/callback',
      query: '',
    });
    expect(lines.join('\n')).not.toContain('secret-code');
  });

  it('silent: nothing', async () => {
    const { app, lines } = appLogging('silent');
    await app.request('/healthz');
    expect(lines).toEqual([]);
  });
});
