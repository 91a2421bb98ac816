import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import {
  startLocalIdentityProvider,
  type LocalIdentityProvider,
} from '../server/console/auth/testing/local-identity-provider';
import { expectNoSeriousA11yViolations } from './testing/axe';
import { e2eDataDir } from './testing/e2e-data-dir';

const TAB = '/settings/billing-and-usage/granular-usage';
const mainPort = Number(process.env.E2E_PORT ?? 5273);
/** A console with CONSOLE_AUTH=oidc, reading usage from the main test server as LangSmith. */
const oidcPort = mainPort + 3;
const origin = `http://127.0.0.1:${oidcPort}`;

let idp: LocalIdentityProvider | undefined;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const client = {
    clientId: 'usage-console-e2e',
    clientSecret: 'e2e-client-secret',
    redirectUri: `${origin}/_console/auth/callback`,
  };
  idp = await startLocalIdentityProvider(client);
  server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      USAGE_CONSOLE_NO_DOTENV: '1',
      HOST: '127.0.0.1',
      PORT: String(oidcPort),
      DATA_DIR: `${e2eDataDir()}/sign-in-oidc`,
      USAGE_SEED: 'none',
      LANGSMITH_ENDPOINT: `http://127.0.0.1:${mainPort}`,
      LANGSMITH_API_KEY: 'lsv2_demo_admin',
      CONSOLE_AUTH: 'oidc',
      CONSOLE_PUBLIC_URL: origin,
      OIDC_ISSUER_URL: idp.issuer,
      OIDC_CLIENT_ID: client.clientId,
      OIDC_CLIENT_SECRET: client.clientSecret,
      CONSOLE_ADMIN_EMAILS: 'ada@example.com',
      CONSOLE_VIEWER_DOMAINS: 'example.com',
      LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
  });
  await expect
    .poll(async () => (await fetch(`${origin}/healthz`).catch(() => undefined))?.status, {
      timeout: 170_000,
    })
    .toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await idp?.close();
});

/** Through the console's button, the provider's login and consent pages, and back. */
async function signInAs(page: Page, email: string) {
  await page.goto(`${origin}${TAB}`);
  await page.getByRole('link', { name: 'Sign in with your organization' }).click();
  await page.getByPlaceholder('Enter any login').fill(email);
  await page.getByPlaceholder('and password').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${origin}/**`);
}

test('an admin e-mail signs in and is offered the limit editor', async ({ page }) => {
  await signInAs(page, 'ada@example.com');
  const user = page.getByRole('region', { name: 'Signed in' });
  await expect(user.getByText('ada@example.com')).toBeVisible();
  await expect(user.getByText('Role: Admin')).toBeVisible();
  const card = page.getByRole('region', { name: 'Usage limits this month' });
  await expect(card.getByRole('button', { name: /^Set a limit for / }).first()).toBeVisible();
  expect(await page.evaluate(() => document.cookie)).toBe('');
});

test('an admin e-mail changes a limit and the audit log names that e-mail', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = { 'x-api-key': 'lsv2_demo_admin' };
  const main = `http://127.0.0.1:${mainPort}`;
  const workspaces = (await (
    await request.get(`${main}/api/v1/workspaces`, { headers: admin })
  ).json()) as { id: string; display_name: string }[];
  // Not the workspace the API-key audit spec changes, so neither reads the other's entry.
  const target = workspaces.at(-2);
  if (!target) throw new Error('The demo data has fewer than two workspaces.');
  const name = target.display_name;
  try {
    await signInAs(page, 'ada@example.com');
    await page.goto(`${origin}${TAB}?workspaces=${target.id}`);
    const card = page.getByRole('region', { name: 'Usage limits this month' });
    await card.getByRole('button', { name: `Set a limit for ${name}` }).click();
    await card.getByLabel(`Traces a month for ${name}`).fill('70000000');
    await card.getByRole('button', { name: 'Save limit' }).click();
    await expect(card.getByRole('button', { name: `Change the limit for ${name}` })).toBeVisible();

    await page.getByRole('link', { name: 'Audit log' }).click();
    const table = page.getByRole('table', { name: 'Audit log' });
    const latest = table.getByRole('row').nth(1);
    await expect(latest).toContainText('ada@example.com');
    await expect(latest).toContainText(`usage_limit.set ${name} (monthly_traces)`);
    // A new limit: its fields as set, no "before".
    await expect(
      latest.getByRole('cell').nth(2).getByRole('listitem').filter({ hasText: 'limit_value' }),
    ).toHaveText('limit_value: 70000000');
  } finally {
    const limits = (await (
      await request.get(`${main}/api/v1/usage-limits`, {
        headers: { ...admin, 'x-tenant-id': target.id },
      })
    ).json()) as { id: string }[];
    for (const { id } of limits) {
      await request.delete(`${main}/api/v1/usage-limits/${id}`, { headers: admin });
    }
  }
});

test('a viewer domain reads usage without the limit editor; a PUT by hand is 403', async ({
  page,
}) => {
  await signInAs(page, 'bob@example.com');
  await expect(
    page.getByRole('region', { name: 'Signed in' }).getByText('Role: Viewer'),
  ).toBeVisible();
  const card = page.getByRole('region', { name: 'Usage limits this month' });
  await expect(card.getByText(/^No limit: /).first()).toBeVisible();
  await expect(card.getByRole('button', { name: /^Set a limit for / })).toHaveCount(0);
  const sections = page.getByRole('navigation', { name: 'Billing and Usage sections' });
  await expect(sections.getByRole('link', { name: 'Invoices' })).toBeVisible();
  await expect(sections.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  const put = await page.request.put(`${origin}/_console/usage/usage-limits/org/default`, {
    headers: { origin },
    data: { limit_type: 'monthly_traces', limit_value: 10 },
  });
  expect(put.status()).toBe(403);
  const audit = await page.request.get(`${origin}/_console/usage/orgs/current/audit-log`);
  expect(audit.status()).toBe(403);
  expect(((await audit.json()) as { detail: string }).detail).toMatch(
    /^Your console role \(viewer\) may not /,
  );
});

test('an unknown domain gets the no-access page', async ({ page }) => {
  await signInAs(page, 'mallory@elsewhere.org');
  await expect(page.getByRole('heading', { name: 'No access to the Usage Console' })).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousA11yViolations(page);
  }
});
