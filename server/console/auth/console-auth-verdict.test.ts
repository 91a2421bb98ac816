import { describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config';
import { consoleAuthVerdict } from './console-auth-verdict';

const verdict = (env: Record<string, string>) => consoleAuthVerdict(loadConfig(env));

describe('consoleAuthVerdict', () => {
  it.each([
    ['loopback, unset', { HOST: '127.0.0.1' }, 'none'],
    ['localhost, unset', { HOST: 'localhost' }, 'none'],
    ['IPv6 loopback, unset', { HOST: '::1' }, 'none'],
    ['all interfaces, apikey', { HOST: '0.0.0.0', CONSOLE_AUTH: 'apikey' }, 'apikey'],
    ['loopback, apikey', { CONSOLE_AUTH: 'apikey' }, 'apikey'],
  ])('starts quietly: %s', (_name, env, mode) => {
    expect(verdict(env)).toEqual({ start: true, mode });
  });

  it('refuses a non-loopback HOST without CONSOLE_AUTH, naming the variable', () => {
    const answer = verdict({ HOST: '0.0.0.0' });
    expect(answer.start).toBe(false);
    expect(answer.start === false && answer.message).toContain('CONSOLE_AUTH=apikey');
    expect(answer.start === false && answer.message).toContain('on HOST=0.0.0.0');
  });

  it('starts open with a warning when CONSOLE_AUTH=none is set on purpose', () => {
    const answer = verdict({ HOST: '10.1.2.3', CONSOLE_AUTH: 'none' });
    expect(answer).toMatchObject({ start: true, mode: 'none' });
    expect(answer.start && answer.warning).toContain('CONSOLE_AUTH=none');
  });

  it('rejects an unknown mode at configuration time', () => {
    expect(() => loadConfig({ CONSOLE_AUTH: 'password' })).toThrow(/CONSOLE_AUTH/);
  });
});

describe('CONSOLE_AUTH=oidc configuration', () => {
  const oidc = {
    CONSOLE_AUTH: 'oidc',
    OIDC_ISSUER_URL: 'https://login.example.com',
    OIDC_CLIENT_ID: 'console',
    CONSOLE_PUBLIC_URL: 'https://usage.example.com',
  };

  it('starts with an https issuer, or an http one on loopback', () => {
    expect(verdict({ ...oidc, HOST: '0.0.0.0' })).toEqual({ start: true, mode: 'oidc' });
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER_URL: 'http://127.0.0.1:9000' })).not.toThrow();
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER_URL: 'http://localhost:9000' })).not.toThrow();
  });

  it.each([
    [{ OIDC_ISSUER_URL: 'http://login.example.com' }, /OIDC_ISSUER_URL: must be https/],
    [{ OIDC_ISSUER_URL: '' }, /OIDC_ISSUER_URL: is required when CONSOLE_AUTH=oidc/],
    [{ OIDC_CLIENT_ID: '' }, /OIDC_CLIENT_ID: is required/],
    [{ CONSOLE_PUBLIC_URL: '' }, /CONSOLE_PUBLIC_URL: is required/],
  ])('refuses %o, naming the variable', (change, message) => {
    expect(() => loadConfig({ ...oidc, ...change })).toThrow(message);
  });
});
