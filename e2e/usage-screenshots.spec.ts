import { expect, test, type Browser, type Page } from '@playwright/test';

/**
 * The console's screenshots, beside the feature each shows (src/features/usage/screenshots,
 * src/features/playground/screenshots), written only with USAGE_SCREENSHOTS=1
 * (`USAGE_SCREENSHOTS=1 npx playwright test e2e/usage-screenshots.spec.ts`; playwright.config.ts
 * leaves this file out otherwise). Each waits for the chart's bars, so no image shows a chart
 * mid-load. "Every page" writes each page at 1440 x 900 and 390 x 844, light and dark.
 */

const TAB = '/settings/billing-and-usage/granular-usage';
const DIR = 'src/features/usage/screenshots';

async function openLoaded(page: Page, query: string) {
  await page.goto(`${TAB}${query}`);
  await expect(page.getByLabel('Total traces')).toHaveText(/^\d[\d,]*$/);
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.locator('.chart-body.stale')).toHaveCount(0);
}

test('usage tab at 1440 px: 6 months by project in calendar months, with a tooltip', async ({
  page,
}) => {
  // Tall enough for the cards and the chart with its tooltip in one image.
  await page.setViewportSize({ width: 1440, height: 1150 });
  await openLoaded(page, '?period=6m&group_by=project&aggregation=calendar-month');
  const bars = page.locator('.recharts-bar-rectangle');
  await bars.nth(Math.floor((await bars.count()) / 2)).hover();
  await expect(page.locator('.recharts-tooltip-wrapper')).toBeVisible();
  await page.screenshot({ path: `${DIR}/granular-usage.png` });
});

test('usage tab at 1440 px, the whole page (last 30 days by workspace)', async ({ page }) => {
  await openLoaded(page, '');
  await page.screenshot({ path: `${DIR}/granular-usage-1440-full.png`, fullPage: true });
});

test('usage tab at 390 px, the whole page', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLoaded(page, '?group_by=project');
  await page.screenshot({ path: `${DIR}/granular-usage-390.png`, fullPage: true });
});

test('a focused project, with "Other" open in the table', async ({ page }) => {
  await openLoaded(page, '?group_by=project');
  const table = page.getByRole('table', { name: 'Usage by group' });
  await table.getByRole('rowheader').first().getByRole('button').click();
  await expect(page.getByText(/^Showing/)).toBeVisible();
  await table.getByRole('button', { name: /^Other/ }).click();
  await page.screenshot({ path: `${DIR}/granular-usage-focus-1440.png`, fullPage: true });
});

test('yesterday by the hour (a zoomed day)', async ({ page }) => {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await openLoaded(page, `?period=custom&from=${yesterday}&to=${yesterday}&aggregation=hourly`);
  await page.screenshot({ path: `${DIR}/granular-usage-zoom-hourly-1440.png` });
});

async function openDeployments(page: Page, query: string) {
  await page.goto(`${TAB}?tab=deployments${query}`);
  await expect(page.getByLabel('Agent runs', { exact: true })).toHaveText(/^\d[\d,]*$/);
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.locator('.chart-body.stale')).toHaveCount(0);
}

test('Deployments tab at 1440 px, the whole page (last 30 days by project)', async ({ page }) => {
  await openDeployments(page, '&group_by=project');
  await page.screenshot({ path: `${DIR}/granular-usage-deployments-1440.png`, fullPage: true });
});

test('Deployments tab at 390 px, the whole page', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openDeployments(page, '');
  await page.screenshot({ path: `${DIR}/granular-usage-deployments-390.png`, fullPage: true });
});

test('Traces tab at 1440 px, long-lived traces only', async ({ page }) => {
  await openLoaded(page, '?tier=longlived&group_by=project');
  await page.screenshot({ path: `${DIR}/granular-usage-longlived-1440.png` });
});

test('the first screen at 1440 x 900, light and dark', async ({ page }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await openLoaded(page, '');
    await page.screenshot({ path: `${DIR}/granular-usage-first-screen-1440-${scheme}.png` });
  }
});

test('the first screen at 390 x 844, light and dark, and the open filter panel', async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await openLoaded(page, '');
    await page.screenshot({ path: `${DIR}/granular-usage-390-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: /Filters/ }).click();
  await page.screenshot({ path: `${DIR}/granular-usage-390-filters.png` });
  await context.close();
});

test('today by the hour: the hours to come shaded "not yet"', async ({ page }) => {
  const today = new Date().toISOString().slice(0, 10);
  await openLoaded(page, `?period=custom&from=${today}&to=${today}&aggregation=hourly`);
  const plot = await page.locator('.recharts-cartesian-grid').boundingBox();
  if (plot) await page.mouse.move(plot.x + plot.width - 6, plot.y + plot.height / 2);
  await page.screenshot({ path: `${DIR}/granular-usage-today-hourly-1440.png` });
});

const PLAYGROUND_DIR = 'src/features/playground/screenshots';

/** A page at `width` x `height` in `scheme`, touch-driven and mobile below 640 px. */
async function openPageAt(
  browser: Browser,
  width: number,
  height: number,
  scheme: 'light' | 'dark',
) {
  const phone = width < 640;
  const context = await browser.newContext({
    viewport: { width, height },
    hasTouch: phone,
    isMobile: phone,
    colorScheme: scheme,
  });
  return { context, page: await context.newPage() };
}

for (const { width, height } of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`every page at ${width} x ${height}, ${scheme}`, async ({ browser }) => {
      test.setTimeout(120_000);
      const { context, page } = await openPageAt(browser, width, height, scheme);
      const suffix = `${width}-${scheme}`;

      await openLoaded(page, '');
      await page.screenshot({ path: `${DIR}/page-traces-${suffix}.png` });
      const limits = page.getByRole('region', { name: 'Usage limits this month' });
      await expect(limits.getByRole('table')).toBeVisible();
      await limits.scrollIntoViewIfNeeded();
      await limits.screenshot({ path: `${DIR}/page-limits-${suffix}.png` });

      await openDeployments(page, '');
      await page.screenshot({ path: `${DIR}/page-deployments-${suffix}.png` });

      await page.goto('/tools/rollback-playground');
      const run = page.getByRole('button', { name: 'Run double-text' });
      await expect(run).toBeVisible();
      await page.screenshot({ path: `${PLAYGROUND_DIR}/page-playground-${suffix}.png` });
      await run.click();
      const fates = page.getByRole('region', { name: 'Fates' });
      await expect(fates).toBeInViewport({ timeout: 45_000 });
      // The smooth scroll has settled: the image shows where the reader lands.
      await expect
        .poll(async () => {
          const before = await page.evaluate(() => window.scrollY);
          await page.waitForTimeout(200);
          return (await page.evaluate(() => window.scrollY)) === before;
        })
        .toBe(true);
      await page.screenshot({ path: `${PLAYGROUND_DIR}/page-playground-result-${suffix}.png` });
      await context.close();
    });
  }
}

const ADMIN_DIR = 'src/features/admin/screenshots';

for (const { width, height } of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`invoices and admin pages at ${width} x ${height}, ${scheme}`, async ({ browser }) => {
      const { context, page } = await openPageAt(browser, width, height, scheme);
      const suffix = `${width}-${scheme}`;

      await page.goto('/settings/billing-and-usage/invoices');
      await expect(page.getByRole('table').first()).toBeVisible();
      await page.screenshot({ path: `${DIR}/page-invoices-${suffix}.png` });

      // One key made through the API (once per run), so the list and the audit log show a row.
      const admin = { 'x-api-key': 'lsv2_demo_admin' };
      const keys = (await (
        await page.request.get('/api/v1/api-key', { headers: admin })
      ).json()) as { description: string }[];
      if (!keys.some((key) => key.description === 'CI sender')) {
        const made = await page.request.post('/api/v1/api-key', {
          headers: admin,
          data: { description: 'CI sender', role: 'writer' },
        });
        expect(made.ok()).toBe(true);
      }
      await page.goto('/settings/billing-and-usage/api-keys');
      await expect(page.getByRole('textbox', { name: 'Name' })).toBeVisible();
      await expect(page.getByRole('cell', { name: 'Writer' })).toBeVisible();
      await expect(page.getByRole('status')).toHaveCount(0);
      await page.screenshot({ path: `${ADMIN_DIR}/page-api-keys-${suffix}.png` });

      await page.goto('/settings/billing-and-usage/audit-log');
      await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
      await expect(page.getByRole('rowheader', { name: /^API key created/ })).toBeVisible();
      await expect(page.getByRole('status')).toHaveCount(0);
      await page.screenshot({ path: `${ADMIN_DIR}/page-audit-log-${suffix}.png` });
      await context.close();
    });
  }
}
