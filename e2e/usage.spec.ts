import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { parseCsv } from '../server/usage/test/csv-parse';
import { expectNoSeriousA11yViolations } from './testing/axe';

const TAB = '/settings/billing-and-usage/granular-usage';

async function totalTraces(page: Page): Promise<number> {
  const output = page.getByLabel('Total traces');
  await expect(output).toHaveText(/^\d[\d,]*$/);
  return Number((await output.textContent())?.replaceAll(',', ''));
}

function usageTable(page: Page) {
  return page.getByRole('table', { name: 'Usage by group' });
}

test.describe('Granular Usage tab', () => {
  test('shows the last 30 days by workspace with a chart, totals and a table', async ({ page }) => {
    await page.goto(TAB);
    expect(await totalTraces(page)).toBeGreaterThan(0);
    await expect(page.getByLabel('Time range')).toHaveValue('30d');
    await expect(page.getByLabel('Aggregation')).toHaveValue('daily');
    await expect(page.getByLabel('Group by')).toHaveValue('workspace');
    await expect(page.getByRole('button', { name: /Workspaces/ })).toContainText('All (5)');
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await expect(usageTable(page).getByRole('row')).toHaveCount(6);
    await expect(page.getByText('Bucket start, UTC · daily buckets')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('each control changes the chart, the table and the URL; the URL restores the view', async ({
    page,
  }) => {
    // Eight screens in one test: more than the default minute when other jobs load the machine.
    test.setTimeout(150_000);
    await page.goto(TAB);
    const total30 = await totalTraces(page);

    await page.getByLabel('Group by').selectOption('project');
    await expect(page).toHaveURL(/group_by=project/);
    await expect(usageTable(page).getByRole('columnheader', { name: 'Project' })).toBeVisible();
    await expect.poll(async () => usageTable(page).getByRole('row').count()).toBeGreaterThan(11);
    await expect(
      page
        .getByRole('list', { name: 'Series' })
        .getByRole('button', { name: /^Other \(\d+ more\)$/ }),
    ).toBeVisible();
    // The total does not depend on the grouping.
    expect(await totalTraces(page)).toBe(total30);

    await page.getByLabel('Time range').selectOption('7d');
    await expect(page).toHaveURL(/period=7d/);
    await expect.poll(() => totalTraces(page)).toBeLessThan(total30);

    await page.getByLabel('Time range').selectOption('3m');
    await expect(page.getByLabel('Aggregation')).toHaveValue('weekly');
    await page.getByLabel('Aggregation').selectOption('daily');
    await expect(page).toHaveURL(/aggregation=daily/);
    await expect(page.getByText('Bucket start, UTC · daily buckets')).toBeVisible();
    const total3mDaily = await totalTraces(page);

    await page.getByRole('button', { name: /Workspaces/ }).click();
    const firstWorkspace = page
      .getByRole('group', { name: 'Workspaces' })
      .getByRole('checkbox')
      .first();
    await firstWorkspace.uncheck();
    await expect(page).toHaveURL(/workspaces=/);
    await expect.poll(() => totalTraces(page)).toBeLessThan(total3mDaily);
    const filteredTotal = await totalTraces(page);

    const sharedUrl = page.url();
    await page.reload();
    await expect(page.getByLabel('Time range')).toHaveValue('3m');
    await expect(page.getByLabel('Aggregation')).toHaveValue('daily');
    await expect(page.getByLabel('Group by')).toHaveValue('project');
    await expect(page.getByRole('button', { name: /Workspaces/ })).toContainText('4 of 5');
    expect(await totalTraces(page)).toBe(filteredTotal);

    await page.goBack();
    await expect(page.getByRole('button', { name: /Workspaces/ })).toContainText('All (5)');
    await page.goForward();
    await expect(page.getByRole('button', { name: /Workspaces/ })).toContainText('4 of 5');

    const fresh = await page.context().newPage();
    await fresh.goto(sharedUrl);
    expect(await totalTraces(fresh)).toBe(filteredTotal);
  });

  test('drill-down: a row shows its group alone, a bar opens its day by the hour, Back returns', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto(TAB);
    const total = await totalTraces(page);
    // The groups drawn, by the colours of the stacks' segments.
    const drawnGroups = async () =>
      new Set(
        await page
          .locator('.chart-panel .recharts-bar-rectangle rect')
          .evaluateAll((rects) => rects.map((rect) => rect.getAttribute('fill'))),
      ).size;
    await expect.poll(drawnGroups).toBe(5);

    // A row's name is a button: the chart shows that workspace alone, and says so.
    const firstRow = usageTable(page).getByRole('rowheader').first().getByRole('button');
    const workspace = (await firstRow.textContent()) ?? '';
    await firstRow.click();
    await expect(page.getByText(`Showing ${workspace} only`)).toBeVisible();
    await expect(page).toHaveURL(/focus=/);
    await expect.poll(drawnGroups).toBe(1);
    // The cards follow the focus, and say of how many in all.
    expect(await totalTraces(page)).toBeLessThan(total);
    await expect(page.getByText(`of ${total.toLocaleString('en-US')} in all groups`)).toBeVisible();

    // A bar: its day, hourly; the focus stays.
    const bars = page.locator('.chart-panel .recharts-bar-rectangle');
    await bars.nth((await bars.count()) - 3).click();
    await expect(page).toHaveURL(
      /period=custom.*aggregation=hourly|aggregation=hourly.*period=custom/,
    );
    await expect(page.getByLabel('Aggregation')).toHaveValue('hourly');
    await expect(page.getByText('Bucket start, UTC · hourly buckets')).toBeVisible();
    await expect(page.getByText(`Showing ${workspace} only`)).toBeVisible();
    await expect.poll(() => bars.count()).toBeGreaterThan(1);
    await expect.poll(() => totalTraces(page)).toBeLessThan(total);

    // Back: the 30 days again, still focused; "Show all" clears the focus.
    await page.goBack();
    await expect(page.getByLabel('Time range')).toHaveValue('30d');
    await expect(page.getByText('Bucket start, UTC · daily buckets')).toBeVisible();
    await page.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(drawnGroups).toBe(5);

    // From a focused workspace, one click to its projects.
    await page
      .getByRole('list', { name: 'Series' })
      .getByRole('button', { name: workspace })
      .click();
    await page.getByRole('button', { name: `Projects in ${workspace}` }).click();
    await expect(page.getByLabel('Group by')).toHaveValue('project');
    await expect(page.getByRole('button', { name: /Workspaces/ })).toContainText(workspace);
    await expect(usageTable(page).getByRole('columnheader', { name: 'Project' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('a custom range with the end before the start shows the error and fetches nothing', async ({
    page,
  }) => {
    await page.goto(`${TAB}?period=custom&from=2026-03-01&to=2026-03-31`);
    const total = await totalTraces(page);
    await page.getByLabel('End date').fill('2026-02-01');
    await page.getByRole('button', { name: 'Apply range' }).click();
    await expect(page.getByText('End date must be on or after the start date.')).toBeVisible();
    await expect(page.getByLabel('End date')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/to=2026-03-31/);
    expect(await totalTraces(page)).toBe(total);
  });

  test('Export CSV downloads the screen: its Traces add up to Total traces', async ({ page }) => {
    await page.goto(`${TAB}?group_by=user`);
    const total = await totalTraces(page);
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloadPromise;
    // Last 30 days: the name ends on today (the range's last day), not on tomorrow's midnight.
    const today = Date.UTC(...utcYmd(new Date()));
    const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(
      `granular-usage_${dayText(today - 29 * 86_400_000)}_${dayText(today)}_user.csv`,
    );
    const text = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      'Time Bucket Start',
      'Time Bucket End',
      'Workspace ID',
      'Workspace Name',
      'Project ID',
      'Project Name',
      'User ID',
      'User Email',
      'API Key Short Key',
      'Traces',
    ]);
    expect(rows.reduce((sum, row) => sum + Number(row[9]), 0)).toBe(total);
    await expect(
      page.getByRole('status').filter({ hasText: 'Saved granular-usage_' }),
    ).toBeVisible();

    // The optional estimated cost column, at the prices in the URL (base and extended alike).
    await page.goto(`${TAB}?group_by=user&price=4&price_ext=4`);
    await page.getByLabel('Add estimated cost column').check();
    const withCostPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const withCost = await withCostPromise;
    const [costHeader, ...costRows] = parseCsv(
      (await readFile(await withCost.path(), 'utf8')).replace(/^\uFEFF/, ''),
    );
    expect(costHeader?.at(-1)).toBe('Estimated Cost USD (estimate)');
    const dollars = costRows.reduce((sum, row) => sum + Number(row[10]), 0);
    expect(dollars).toBeCloseTo((total / 1000) * 4, 1);
  });

  test('a restricted key sees only its workspaces; a key without permission gets a clear error', async ({
    page,
  }) => {
    await page.goto(TAB);
    const adminTotal = await totalTraces(page);

    await page.getByRole('button', { name: /^Connection:/ }).click();
    await page.getByLabel('API key').fill('lsv2_demo_limited');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await expect(page.getByRole('button', { name: /Workspaces/ })).toContainText('All (2)');
    await expect.poll(() => totalTraces(page)).toBeLessThan(adminTotal);
    await expect(usageTable(page).getByRole('row')).toHaveCount(3);

    await page.getByRole('button', { name: /^Connection:/ }).click();
    await page.getByLabel('API key').fill('lsv2_demo_noperm');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await expect(page.getByRole('alert')).toContainText('(403)');
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    // A refused key needs changing, not retrying: the panel opens Connection at the key field.
    await page.getByRole('button', { name: 'Change API key' }).first().click();
    await expect(page.getByLabel('API key')).toBeFocused();

    await page.getByRole('button', { name: 'Use server connection' }).click();
    expect(await totalTraces(page)).toBe(adminTotal);
  });

  test('a shared link naming a workspace the key cannot read says which one it left out', async ({
    page,
    request,
  }) => {
    const list = async (key: string) =>
      (await (
        await request.get('/api/v1/workspaces', { headers: { 'x-api-key': key } })
      ).json()) as { id: string; display_name: string }[];
    const readable = await list('lsv2_demo_limited');
    const hidden = (await list('lsv2_demo_admin')).find(
      (workspace) => !readable.some((item) => item.id === workspace.id),
    );
    const shown = readable[0];
    if (!hidden || !shown) throw new Error('the demo keys should differ in workspaces');

    await page.goto(TAB);
    await page.getByRole('button', { name: /^Connection:/ }).click();
    await page.getByLabel('API key').fill('lsv2_demo_limited');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await page.goto(`${TAB}?workspaces=${shown.id},${hidden.id}`);

    await expect(page.getByRole('status').filter({ hasText: 'cannot read' })).toContainText(
      hidden.id,
    );
    await expect(page.getByRole('button', { name: /Workspaces/ })).toContainText(
      `${shown.display_name} (1 not readable, left out)`,
    );
    expect(await totalTraces(page)).toBeGreaterThan(0);
  });

  test('a shared link whose end is before its start says exactly that', async ({ page }) => {
    await page.goto(`${TAB}?period=custom&from=2026-03-31&to=2026-03-01`);
    await expect(page.getByRole('status').filter({ hasText: 'before the start' })).toHaveText(
      'The end date (2026-03-01) is before the start date (2026-03-31). Choose an end on or after the start.',
    );
  });

  test('a link to the year 9999 says the range is too long and sends no usage request; the form refuses it too', async ({
    page,
  }) => {
    const usageRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/billing/granular-usage')) usageRequests.push(request.url());
    });
    await page.goto(`${TAB}?period=custom&from=2020-01-01&to=9999-12-31`);
    await expect(page.getByRole('status').filter({ hasText: 'days long' })).toHaveText(
      'This range is 2,914,635 days long; the console shows at most 12,000 days (about 32 years) at a time. Choose a later start or an earlier end.',
    );
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(usageRequests).toEqual([]);

    await page.getByLabel('Start date').fill('2026-01-01');
    await page.getByRole('button', { name: 'Apply range' }).click();
    await expect(page.getByLabel('End date')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/^This range is 2,914,\d{3} days long/).first()).toBeVisible();
    await page.getByLabel('End date').fill('2026-01-31');
    await page.getByRole('button', { name: 'Apply range' }).click();
    await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-31/);
    expect(await totalTraces(page)).toBeGreaterThan(0);
  });

  test('Last year does not claim growth over an unmeasured year; calendar months are UTC months', async ({
    page,
  }) => {
    await page.goto(`${TAB}?period=1y`);
    await expect(
      page.getByText('Previous period not measured: no data before 5 Jan 2026'),
    ).toBeVisible();
    await expect(page.getByText(/New/)).toHaveCount(0);

    await page.goto(`${TAB}?period=6m&aggregation=calendar-month`);
    await expect(page.getByLabel('Aggregation')).toHaveValue('calendar-month');
    await expect(page.getByText(/^Comparing the \d+ measured days/)).toBeVisible();
    await expect(page.getByText(/is partial: the range starts on/)).toBeVisible();
    const total = await totalTraces(page);
    await page.getByLabel('Aggregation').selectOption('weekly');
    // Re-bucketing never changes the total.
    expect(await totalTraces(page)).toBe(total);

    await page.getByLabel('Time range').selectOption('this-month');
    await expect(page.getByLabel(/Projected for/)).toHaveText(/^([\d,]+|From the 2nd)$/);
  });
});

test.describe('Granular Usage tab in LangSmith mode', () => {
  const langsmithMode = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 5273) + 1}`;

  test("Copy as curl targets the configured LangSmith, and the command's request answers", async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: langsmithMode,
    });
    await page.goto(`${langsmithMode}${TAB}?period=7d`);
    const total = await totalTraces(page);
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await expect(page.getByText('Copied')).toBeVisible();
    const command = await page.evaluate(() => navigator.clipboard.readText());

    // The first server plays LangSmith: the command names its /api/v1, not this console's.
    const url = /'(http[^']+)'/.exec(command)?.[1] ?? '';
    expect(url.startsWith(`${test.info().project.use.baseURL}/api/v1/orgs/current/billing/`)).toBe(
      true,
    );
    const response = await request.get(url, { headers: { 'x-api-key': 'lsv2_demo_admin' } });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { usage: { traces: number }[] };
    expect(body.usage.reduce((sum, record) => sum + record.traces, 0)).toBe(total);
  });
});

function utcYmd(date: Date): [number, number, number] {
  return [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
}

test.describe('A light page', () => {
  function recordScripts(page: Page) {
    const scripts: { url: string; encoding: string | undefined }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') {
        scripts.push({ url: response.url(), encoding: response.headers()['content-encoding'] });
      }
    });
    return scripts;
  }

  test('the usage tab loads its chart code, every script compressed', async ({ page }) => {
    const scripts = recordScripts(page);
    await page.goto(TAB);
    // The chart chunk parses after the data arrives; the shared 2-core machine can be slow.
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible({ timeout: 30_000 });
    expect(scripts.some((script) => script.url.includes('/usage-chart-'))).toBe(true);
    expect(scripts.filter((script) => script.encoding !== 'br')).toEqual([]);
  });

  test('the playground loads no chart code', async ({ page }) => {
    const scripts = recordScripts(page);
    await page.goto('/tools/rollback-playground');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Rollback playground' }),
    ).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => script.url.includes('usage-chart'))).toEqual([]);
  });
});
