import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@server/app';
import { loadConfig, type Config } from '@server/config';
import { testProfile } from '@server/usage/seed/seed-profiles';
import { createUsageService, type UsageService } from '@server/usage/usage-service';
import { apiKeyConsoleAuth } from './console-auth';
import { consoleAuthFromConfig } from './console-auth-from-config';
import { embeddedKeyVerifier } from './key-verifier';

/** What the console's own page sends with a change (the app answers as http://localhost). */
const SAME_ORIGIN = { origin: 'http://localhost', 'content-type': 'application/json' };

let dataDir: string;
let usage: UsageService;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'console-sign-in-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', USAGE_SEED: 'demo' });
  usage = await createUsageService(config, { seedProfile: testProfile(), announce: false });
});
afterAll(async () => {
  await usage?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function consoleApp(env: Record<string, string> = {}) {
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    CONSOLE_AUTH: 'apikey',
    ...env,
  });
  return createApp({
    config,
    services: [usage],
    consoleAuth: consoleAuthFromConfig(config, usage.consoleStores),
  });
}

type App = ReturnType<typeof consoleApp>;

const signIn = (app: App, apiKey: string, headers: Record<string, string> = SAME_ORIGIN) =>
  app.request('/_console/auth/sign-in', {
    method: 'POST',
    headers,
    body: JSON.stringify({ apiKey }),
  });

/** The `name=value` part of the response's cookie, as a browser sends it back. */
function cookieOf(response: Response): string {
  const cookie = response.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0] ?? '';
}

describe('CONSOLE_AUTH=apikey', () => {
  let app: App;
  beforeAll(() => {
    app = consoleApp();
  });

  it('answers 401 {detail} on the proxies until someone signs in', async () => {
    const session = await app.request('/_console/auth/session');
    expect(await session.json()).toEqual({ mode: 'apikey', user: null });
    for (const path of [
      '/_console/usage/workspaces',
      '/_console/usage/orgs/current/billing/granular-usage/export',
    ]) {
      const response = await app.request(path);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: 'Sign in to use the console.' });
    }
  });

  it('refuses a wrong key in words, without echoing it or setting a cookie', async () => {
    const response = await signIn(app, 'lsv2_not_a_key_4242');
    expect(response.status).toBe(401);
    const body = await response.text();
    expect(body).toContain('not accepted');
    expect(body).not.toContain('lsv2_not_a_key_4242');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a key that cannot read usage (403) and an empty one (422)', async () => {
    const noperm = await signIn(app, 'lsv2_demo_noperm');
    expect(noperm.status).toBe(403);
    expect(await noperm.json()).toEqual({
      detail: 'That API key cannot read usage: it lacks the organization:read permission.',
    });
    expect((await signIn(app, '  ')).status).toBe(422);
  });

  it('signs an admin key in with an opaque HttpOnly cookie, and acts with that key', async () => {
    const response = await signIn(app, 'lsv2_demo_admin');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      mode: 'apikey',
      user: { name: 'API key …dmin', role: 'admin' },
    });
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^console_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
    expect(setCookie).not.toContain('lsv2');
    const cookie = cookieOf(response);

    const session = await app.request('/_console/auth/session', { headers: { cookie } });
    expect(session.headers.get('cache-control')).toBe('no-store');
    expect(await session.json()).toEqual({
      mode: 'apikey',
      user: { name: 'API key …dmin', role: 'admin' },
    });
    // A key the browser adds does not replace the signed-in user's.
    const workspaces = await app.request('/_console/usage/workspaces', {
      headers: { cookie, 'x-api-key': 'lsv2_demo_limited' },
    });
    expect(workspaces.status).toBe(200);
    const direct = await usage.app.request('/workspaces', {
      headers: { 'x-api-key': 'lsv2_demo_admin' },
    });
    expect(await workspaces.json()).toEqual(await direct.json());
  });

  it("gives a read-only key a viewer's session: usage reads pass, limit changes are 403", async () => {
    const cookie = cookieOf(await signIn(app, 'lsv2_demo_limited'));
    const workspaces = await app.request('/_console/usage/workspaces', { headers: { cookie } });
    expect(((await workspaces.json()) as unknown[]).length).toBe(2);
    const put = await app.request('/_console/usage/usage-limits', {
      method: 'PUT',
      headers: { ...SAME_ORIGIN, cookie },
      body: JSON.stringify({ limit_type: 'monthly_traces', limit_value: 5 }),
    });
    expect(put.status).toBe(403);
    expect(await put.json()).toEqual({
      detail: 'Your console role (viewer) may not change usage limits.',
    });
  });

  it('revokes a session on sign-out: its cookie no longer works', async () => {
    const cookie = cookieOf(await signIn(app, 'lsv2_demo_admin'));
    const out = await app.request('/_console/auth/sign-out', {
      method: 'POST',
      headers: { ...SAME_ORIGIN, cookie },
    });
    expect(await out.json()).toEqual({ mode: 'apikey', user: null });
    expect(out.headers.get('set-cookie')).toMatch(/^console_session=;.*Max-Age=0/);
    const after = await app.request('/_console/usage/workspaces', { headers: { cookie } });
    expect(after.status).toBe(401);
  });

  it('refuses a change without a same-origin Origin (CSRF), sign-in included', async () => {
    const cookie = cookieOf(await signIn(app, 'lsv2_demo_admin'));
    const noOrigin = await signIn(app, 'lsv2_demo_admin', { 'content-type': 'application/json' });
    expect(noOrigin.status).toBe(403);
    const sameSite = await app.request('/_console/usage/usage-limits/org/default', {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-site' },
      body: '{}',
    });
    expect(sameSite.status).toBe(403);
    const fetchMetadata = await app.request('/_console/auth/sign-out', {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(fetchMetadata.status).toBe(200);
  });
});

describe('sign-in hygiene', () => {
  it('rate-limits sign-in attempts per client address with 429 and Retry-After', async () => {
    const app = consoleApp({ CONSOLE_SIGN_IN_PER_MINUTE: '2' });
    expect((await signIn(app, 'wrong-1')).status).toBe(401);
    expect((await signIn(app, 'wrong-2')).status).toBe(401);
    const limited = await signIn(app, 'lsv2_demo_admin');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('set-cookie')).toBeNull();
  });

  it('marks the cookie Secure with the __Host- prefix behind https', async () => {
    const app = consoleApp({ CONSOLE_PUBLIC_URL: 'https://usage.example.com' });
    const response = await signIn(app, 'lsv2_demo_admin');
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^__Host-console_session=/);
    expect(setCookie).toContain('Secure');
    const session = await app.request('/_console/auth/session', {
      headers: { cookie: cookieOf(response) },
    });
    expect(await session.json()).toMatchObject({ user: { role: 'admin' } });
  });

  it('believes X-Forwarded-Proto only from a trusted proxy', async () => {
    const headers = { ...SAME_ORIGIN, 'x-forwarded-proto': 'https' };
    const untrusted = await signIn(consoleApp(), 'lsv2_demo_admin', headers);
    expect(untrusted.headers.get('set-cookie')).toMatch(/^console_session=/);
    const trusted = await signIn(
      consoleApp({ CONSOLE_TRUST_PROXY: 'true' }),
      'lsv2_demo_admin',
      headers,
    );
    expect(trusted.headers.get('set-cookie')).toMatch(/^__Host-console_session=.*Secure/);
  });

  it('asks to sign in again once a session is idle too long or too old', async () => {
    let nowMs = Date.now();
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CONSOLE_AUTH: 'apikey' });
    const consoleAuth = apiKeyConsoleAuth({
      sessions: usage.consoleStores.sessions,
      verifyKey: embeddedKeyVerifier(usage.consoleStores.keys),
      lifetime: { idleMs: 60_000, maxMs: 150_000 },
      transport: { publicHttps: false, trustProxy: false },
      signInPerMinute: 100,
      now: () => nowMs,
    });
    const app = createApp({ config, services: [usage], consoleAuth });
    const read = (cookie: string) =>
      app.request('/_console/usage/workspaces', { headers: { cookie } });

    const idle = cookieOf(await signIn(app, 'lsv2_demo_admin'));
    nowMs += 60_000;
    const idleAnswer = await read(idle);
    expect(idleAnswer.status).toBe(401);
    expect(await idleAnswer.json()).toEqual({
      detail: 'Your console session has ended. Sign in again.',
    });

    const busy = cookieOf(await signIn(app, 'lsv2_demo_admin'));
    for (let step = 0; step < 2; step += 1) {
      nowMs += 59_000;
      expect((await read(busy)).status).toBe(200);
    }
    nowMs += 40_000;
    expect((await read(busy)).status).toBe(401);
  });
});
