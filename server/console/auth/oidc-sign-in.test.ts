import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@server/app';
import { loadConfig } from '@server/config';
import type { Service } from '@server/http/service';
import { testProfile } from '@server/usage/seed/seed-profiles';
import { createUsageService, type UsageService } from '@server/usage/usage-service';
import { consoleAuthFromConfig } from './console-auth-from-config';
import {
  startLocalIdentityProvider,
  type LocalIdentityProvider,
} from './testing/local-identity-provider';

const CONSOLE = 'http://localhost';
const SAME_ORIGIN = { origin: CONSOLE, 'content-type': 'application/json' };
const client = {
  clientId: 'usage-console',
  clientSecret: 'test-client-secret',
  redirectUri: `${CONSOLE}/_console/auth/callback`,
};

let dataDir: string;
let usage: UsageService;
let idp: LocalIdentityProvider;
/** The `X-Console-Actor` of each request that reached the usage API. */
const actors: (string | null)[] = [];
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'console-oidc-'));
  idp = await startLocalIdentityProvider(client);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    USAGE_SEED: 'demo',
    CONSOLE_AUTH: 'oidc',
    CONSOLE_PUBLIC_URL: CONSOLE,
    OIDC_ISSUER_URL: idp.issuer,
    OIDC_CLIENT_ID: client.clientId,
    OIDC_CLIENT_SECRET: client.clientSecret,
    CONSOLE_ADMIN_EMAILS: 'ada@example.com',
    CONSOLE_VIEWER_DOMAINS: 'example.com',
  });
  usage = await createUsageService(config, { seedProfile: testProfile(), announce: false });
  const recorder = new Hono();
  recorder.all('*', (c) => {
    actors.push(c.req.header('x-console-actor') ?? null);
    return usage.app.fetch(c.req.raw);
  });
  const recorded: Service = { ...usage, app: recorder };
  app = createApp({
    config,
    services: [recorded],
    consoleAuth: consoleAuthFromConfig(config, usage.consoleStores),
  });
});
afterAll(async () => {
  await usage?.close();
  await idp?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .filter((pair) => !pair.endsWith('='));

/** The whole redirect dance as a browser does it; returns where the console lands and its cookie. */
async function signInAs(email: string) {
  const login = await app.request(`${CONSOLE}/_console/auth/login`);
  expect(login.status).toBe(302);
  const authorization = login.headers.get('location') ?? '';
  expect(authorization).toMatch(/code_challenge_method=S256/);
  const [flowCookie = ''] = cookiesOf(login);
  const callback = await idp.signIn(authorization, email);
  expect(`${callback.origin}${callback.pathname}`).toBe(client.redirectUri);
  const landed = await app.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: flowCookie },
  });
  expect(landed.status).toBe(302);
  return {
    location: landed.headers.get('location'),
    cookie: cookiesOf(landed).find((pair) => pair.startsWith('console_session=')),
  };
}

describe('CONSOLE_AUTH=oidc against a local identity provider', () => {
  it('signs an admin in by verified e-mail: limits change, and the usage API learns who', async () => {
    const { location, cookie = '' } = await signInAs('ada@example.com');
    expect(location).toBe('/');
    const session = await app.request('/_console/auth/session', { headers: { cookie } });
    expect(await session.json()).toEqual({
      mode: 'oidc',
      user: { name: 'ada@example.com', role: 'admin' },
    });
    actors.length = 0;
    const put = await app.request('/_console/usage/usage-limits/org/default', {
      method: 'PUT',
      headers: { ...SAME_ORIGIN, cookie, 'x-console-actor': 'someone-else@example.com' },
      body: JSON.stringify({ limit_type: 'monthly_traces', limit_value: 1_000_000 }),
    });
    expect(put.status).toBe(200);
    expect(actors).toEqual(['ada@example.com']);
  });

  it('lets a user of a viewer domain read, and refuses their limit change (403)', async () => {
    const { cookie = '' } = await signInAs('bob@example.com');
    actors.length = 0;
    const read = await app.request('/_console/usage/workspaces', { headers: { cookie } });
    expect(read.status).toBe(200);
    expect(actors).toEqual(['bob@example.com']);
    const put = await app.request('/_console/usage/usage-limits/org/default', {
      method: 'PUT',
      headers: { ...SAME_ORIGIN, cookie },
      body: JSON.stringify({ limit_type: 'monthly_traces', limit_value: 5 }),
    });
    expect(put.status).toBe(403);
    expect(actors).toEqual(['bob@example.com']);
  });

  it('gives anyone else no session, and the page that says so', async () => {
    const { location, cookie } = await signInAs('mallory@elsewhere.org');
    expect(location).toBe('/?sign-in=no-access');
    expect(cookie).toBeUndefined();
  });

  it('refuses a callback without the login under way (no flow cookie)', async () => {
    const login = await app.request(`${CONSOLE}/_console/auth/login`);
    const callback = await idp.signIn(login.headers.get('location') ?? '', 'ada@example.com');
    const landed = await app.request(`${callback.pathname}${callback.search}`);
    expect(landed.headers.get('location')).toBe('/?sign-in=failed');
    expect(cookiesOf(landed).some((pair) => pair.startsWith('console_session='))).toBe(false);
  });
});
