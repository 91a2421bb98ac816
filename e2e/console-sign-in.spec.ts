import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './testing/axe';
import { e2eDataDir } from './testing/e2e-data-dir';

const TAB = '/settings/billing-and-usage/granular-usage';
const mainPort = Number(process.env.E2E_PORT ?? 5273);
/**
 * A console with CONSOLE_AUTH=apikey, started here: it reads usage from the main test server as
 * if that were LangSmith, so keys are checked against that server's usage API (port + 1 is the
 * configuration's LangSmith-mode server).
 */
const signInPort = mainPort + 2;
const origin = `http://127.0.0.1:${signInPort}`;

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      USAGE_CONSOLE_NO_DOTENV: '1',
      HOST: '127.0.0.1',
      PORT: String(signInPort),
      DATA_DIR: `${e2eDataDir()}/sign-in`,
      USAGE_SEED: 'none',
      LANGSMITH_ENDPOINT: `http://127.0.0.1:${mainPort}`,
      CONSOLE_AUTH: 'apikey',
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
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server?.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
});

const signInHeading = (page: Page) =>
  page.getByRole('heading', { name: 'Sign in to the Usage Console' });

async function signIn(page: Page, key: string) {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Everything a script on the page can read: no key may be among it. */
const readableByScripts = (page: Page) =>
  page.evaluate(() =>
    JSON.stringify({
      cookie: document.cookie,
      local: { ...localStorage },
      session: { ...sessionStorage },
    }),
  );

test('sign in with a key, see the usage tab, stay signed in on reload, sign out', async ({
  page,
  context,
}) => {
  await page.goto(`${origin}${TAB}`);
  await expect(signInHeading(page)).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousA11yViolations(page);
  }

  await signIn(page, 'lsv2_demo_wrong');
  await expect(page.getByRole('alert')).toHaveText(/That API key was not accepted/);

  await signIn(page, 'lsv2_demo_admin');
  const user = page.getByRole('region', { name: 'Signed in' });
  await expect(user.getByText('Role: Admin')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Granular Usage' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Usage limits this month' })).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousA11yViolations(page);
  }

  expect(await readableByScripts(page)).not.toContain('lsv2');
  const cookies = await context.cookies(origin);
  expect(cookies).toEqual([
    expect.objectContaining({ name: 'console_session', httpOnly: true, sameSite: 'Strict' }),
  ]);
  expect(JSON.stringify(cookies)).not.toContain('lsv2');

  await page.reload();
  await expect(user.getByText('Role: Admin')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Granular Usage' })).toBeVisible();

  await user.getByRole('button', { name: 'Sign out' }).click();
  await expect(signInHeading(page)).toBeVisible();
  await page.reload();
  await expect(signInHeading(page)).toBeVisible();
});

test('a read-only key gets no limit editor, and a PUT through the proxy is refused', async ({
  page,
}) => {
  await page.goto(`${origin}${TAB}`);
  await signIn(page, 'lsv2_demo_limited');
  await expect(
    page.getByRole('region', { name: 'Signed in' }).getByText('Role: Viewer'),
  ).toBeVisible();
  const card = page.getByRole('region', { name: 'Usage limits this month' });
  await expect(card.getByText(/^No limit: /).first()).toBeVisible();
  await expect(card.getByText(/^Read-only: /)).toBeVisible();
  await expect(card.getByRole('button', { name: /^Set a limit for / })).toHaveCount(0);

  // By hand, with the session's cookie, from the console's own origin: the role still decides.
  const put = await page.request.put(`${origin}/_console/usage/usage-limits`, {
    headers: { origin },
    data: { limit_type: 'monthly_traces', limit_value: 10 },
  });
  expect(put.status()).toBe(403);
  expect(await put.json()).toEqual({
    detail: 'Your console role (viewer) may not change usage limits.',
  });
});
