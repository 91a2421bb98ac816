import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './testing/axe';

// What a newcomer meets on each page at a laptop's and a phone's size, in both colour schemes:
// the first screen of every page, the playground's answer brought into view, and the limits
// card's forecast. Everything runs against the real `npm start` server.
const TAB = '/settings/billing-and-usage/granular-usage';
const ADMIN = { 'x-api-key': 'lsv2_demo_admin' };

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

async function openContext(browser: Browser, width: number, height: number) {
  const phone = width < 640;
  return browser.newContext({
    viewport: { width, height },
    hasTouch: phone,
    isMobile: phone,
  });
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
}

async function openTraces(page: Page) {
  await page.goto(TAB);
  await expect(page.getByLabel('Total traces')).toHaveText(/^\d[\d,]*$/);
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.chart-body.stale')).toHaveCount(0);
}

for (const { width, height } of SIZES) {
  test.describe(`at ${width} x ${height}`, () => {
    for (const scheme of SCHEMES) {
      test(`${scheme}: each page's first screen, one tab bar, axe clean`, async ({ browser }) => {
        test.setTimeout(120_000);
        const context = await openContext(browser, width, height);
        const page = await context.newPage();
        await page.emulateMedia({ colorScheme: scheme });

        await openTraces(page);
        // One tab bar on the page: the billing domains, under the section's heading.
        await expect(page.getByRole('tablist')).toHaveCount(1);
        await expect(page.getByRole('heading', { level: 2, name: 'Granular Usage' })).toBeVisible();
        const plot = await box(page.locator('.recharts-cartesian-grid'));
        // The chart's plot starts inside the first screen (a laptop holds it whole).
        expect(plot.y).toBeLessThan(height);
        if (width > 640) expect(plot.y + plot.height).toBeLessThanOrEqual(height);
        // The connection says which backend serves the data.
        await expect(page.getByRole('button', { name: /^Connection:/ })).toContainText(
          'embedded DuckDB',
        );
        await expectNoSeriousA11yViolations(page);

        await page.getByRole('tab', { name: 'LangSmith Deployments' }).click();
        await expect(page.getByLabel('Agent runs', { exact: true })).toHaveText(/^\d[\d,]*$/);
        await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
        await expectNoSeriousA11yViolations(page);

        await page.goto('/tools/rollback-playground');
        const run = page.getByRole('button', { name: 'Run double-text' });
        // Run is on the first screen, at a phone's size too.
        await expect(run).toBeInViewport();
        await expectNoSeriousA11yViolations(page);
        await context.close();
      });
    }

    test('after Run double-text the Fates box is in view and announced', async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await openContext(browser, width, height);
      const page = await context.newPage();
      await page.goto('/tools/rollback-playground');
      const run = page.getByRole('button', { name: 'Run double-text' });
      await expect(run).toBeInViewport();
      // Copy as SDK code shares the actions' row at a laptop's width.
      if (width > 640) {
        const copy = await box(page.getByRole('button', { name: 'Copy as SDK code' }));
        const runBox = await box(run);
        expect(Math.abs(copy.y - runBox.y)).toBeLessThanOrEqual(2);
      }
      await run.click();
      const fates = page.getByRole('region', { name: 'Fates' });
      await expect(fates).toBeVisible({ timeout: 45_000 });
      await expect(fates).toBeInViewport();
      await expect(page.getByRole('status').filter({ hasText: /Run 1's fate/ })).toHaveText(
        /^Done\. Run 1's fate: .+\.$/,
      );
      await context.close();
    });
  });
}

test.describe('The limits card', () => {
  test('a limit just above the month so far: the forecast names no time already past', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const workspaces = (await (
      await request.get('/api/v1/workspaces', { headers: ADMIN })
    ).json()) as { id: string; display_name: string }[];
    // The last workspace: the embedded deployment traces into the first one.
    const target = workspaces.at(-1);
    if (!target) throw new Error('The demo data has no workspace.');
    try {
      await page.goto(`${TAB}?workspaces=${target.id}`);
      const card = page.getByRole('region', { name: 'Usage limits this month' });
      const noLimit = card.getByText(/^No limit: [\d,]+ traces this month, none refused\.$/);
      const used = Number(
        /[\d,]+/.exec((await noLimit.textContent()) ?? '')?.[0].replaceAll(',', ''),
      );
      // One action per row, the same words on each.
      await expect(card.getByRole('button', { name: /^Set a limit for / })).toHaveText(
        'Set a limit',
      );

      for (const limit of [used + 1, used + 50, used + Math.ceil(used * 0.05)]) {
        const put = await request.put('/api/v1/usage-limits', {
          headers: { ...ADMIN, 'x-tenant-id': target.id },
          data: { limit_type: 'monthly_traces', limit_value: limit },
        });
        expect(put.ok()).toBe(true);
        await page.reload();
        const meter = card.getByRole('meter', {
          name: `${target.display_name}: all traces this month`,
        });
        await expect(meter).toBeVisible();
        const outlook = card.getByText(/^At the current pace|^Limit reached/);
        await expect(outlook).toBeVisible();
        const text = (await outlook.textContent()) ?? '';
        const named = /on ([A-Z][a-z]{2} \d{1,2}) at (\d\d:\d\d) UTC/.exec(text);
        if (named) {
          const year = new Date().getUTCFullYear();
          const atMs = Date.parse(`${named[1]} ${year} ${named[2]} UTC`);
          if (text.startsWith('At the current pace')) expect(atMs).toBeGreaterThan(Date.now());
        }
        // Under the limit, the figure never reads as a full bar.
        if (!text.startsWith('Limit reached')) {
          await expect(card.getByText(/of [\d,]+ traces \(/)).not.toContainText('(100%)');
        }
      }
    } finally {
      // Other specs trace into these workspaces: leave them without limits.
      const limits = (await (
        await request.get('/api/v1/usage-limits', {
          headers: { ...ADMIN, 'x-tenant-id': target.id },
        })
      ).json()) as { id: string }[];
      for (const { id } of limits) {
        await request.delete(`/api/v1/usage-limits/${id}`, { headers: ADMIN });
      }
    }
  });
});
