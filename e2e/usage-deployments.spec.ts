import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { parseCsv } from '../server/usage/test/csv-parse';
import { expectNoSeriousA11yViolations } from './testing/axe';

const TAB = '/settings/billing-and-usage/granular-usage';

/** The figure an output labelled `label` shows, as a number (separators and units dropped). */
async function figure(page: Page, label: string): Promise<number> {
  const output = page.getByLabel(label, { exact: true });
  await expect(output).toHaveText(/^\d[\d,.]*$/);
  return Number((await output.textContent())?.replaceAll(',', ''));
}

/** The downloaded export of the active tab: its header and rows. */
async function exportRows(page: Page) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const text = (await readFile(await file.path(), 'utf8')).replace(/^\uFEFF/, '');
  const [header = [], ...rows] = parseCsv(text);
  const sum = (column: string) =>
    rows.reduce((total, row) => total + Number(row[header.indexOf(column)]), 0);
  return { name: file.suggestedFilename(), header, rows, sum };
}

/** A Y tick's value: "1.5K" is 1,500. */
function tickValue(text: string): number {
  const match = /^([\d.,]+)([KM]?)$/.exec(text.trim());
  if (!match) throw new Error(`not a tick: ${text}`);
  const scale = { '': 1, K: 1_000, M: 1_000_000 }[match[2] ?? ''] ?? 1;
  return Number((match[1] ?? '').replaceAll(',', '')) * scale;
}

test.describe('Granular Usage: LangSmith Traces and LangSmith Deployments', () => {
  test('switching tabs keeps the range and the workspaces; the URL holds the tab', async ({
    page,
  }) => {
    await page.goto(`${TAB}?period=7d`);
    await expect(page.getByRole('tab', { name: 'LangSmith Traces' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByRole('button', { name: /Workspaces/ }).click();
    await page.getByRole('group', { name: 'Workspaces' }).getByRole('checkbox').first().uncheck();
    await expect(page).toHaveURL(/workspaces=/);

    await page.getByRole('tab', { name: 'LangSmith Deployments' }).click();
    await expect(page).toHaveURL(/tab=deployments/);
    await expect(page).toHaveURL(/period=7d/);
    await expect(page.getByLabel('Time range')).toHaveValue('7d');
    await expect(page.getByRole('button', { name: /Workspaces/ })).toContainText('4 of 5');
    expect(await figure(page, 'Agent runs')).toBeGreaterThan(0);
    // The Traces tab's own controls are not offered here.
    await expect(page.getByLabel('Retention')).toHaveCount(0);

    await page.reload();
    await expect(page.getByRole('tab', { name: 'LangSmith Deployments' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByRole('tab', { name: 'LangSmith Traces' }).click();
    await expect(page).not.toHaveURL(/tab=/);
    await expect(page.getByLabel('Time range')).toHaveValue('7d');
    await expect(page.getByRole('button', { name: /Workspaces/ })).toContainText('4 of 5');
    expect(await figure(page, 'Total traces')).toBeGreaterThan(0);
  });

  test('the Deployments tab names the three metrics and draws three charts', async ({ page }) => {
    await page.goto(`${TAB}?tab=deployments`);
    for (const label of ['Nodes executed', 'Agent runs', 'Agent uptime (hours)']) {
      expect(await figure(page, label)).toBeGreaterThan(0);
    }
    for (const title of [
      'Nodes executed over time',
      'Agent runs over time',
      'Agent uptime over time (hours)',
    ]) {
      const chart = page.getByRole('region', { name: title });
      await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
    }
    // One legend, one hint and one partial-bucket note for the three charts.
    await expect(page.getByRole('list', { name: 'Series' })).toHaveCount(1);
    await expect(page.getByText(/still in progress/)).toHaveCount(1);
    // The page says what it counts, and when it was read.
    await expect(page.getByRole('note')).toContainText(/^Data as of .* UTC\. A run and its nodes/);
    await expect(page.getByText('a trace counts when it is received')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('the uptime card and its chart read in one unit, hours', async ({ page }) => {
    await page.goto(`${TAB}?tab=deployments`);
    const cardHours = await figure(page, 'Agent uptime (hours)');
    const chart = page.getByRole('region', { name: 'Agent uptime over time (hours)' });
    await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
    // The highest Y tick is at most the range's total hours: a chart in seconds would be 3,600x.
    const ticks = await chart
      .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
      .allTextContents();
    const top = Math.max(...ticks.map(tickValue));
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThanOrEqual(cardHours);
  });

  test("each tab's export file equals its screen", async ({ page }) => {
    await page.goto(`${TAB}?tab=deployments&group_by=project`);
    const [nodes, runs, uptimeHours] = [
      await figure(page, 'Nodes executed'),
      await figure(page, 'Agent runs'),
      await figure(page, 'Agent uptime (hours)'),
    ];
    const deployments = await exportRows(page);
    expect(deployments.name).toMatch(/^granular-usage_deployments_.*_project\.csv$/);
    expect(deployments.header.slice(-3)).toEqual([
      'Nodes Executed',
      'Agent Runs',
      'Agent Uptime (seconds)',
    ]);
    expect(deployments.sum('Nodes Executed')).toBe(nodes);
    expect(deployments.sum('Agent Runs')).toBe(runs);
    expect(deployments.sum('Agent Uptime (seconds)') / 3600).toBeCloseTo(uptimeHours, 1);

    // Traces, long-lived only: the file holds exactly the traces on screen.
    await page.getByRole('tab', { name: 'LangSmith Traces' }).click();
    const all = await figure(page, 'Total traces');
    await page.getByLabel('Retention').selectOption('longlived');
    await expect(page).toHaveURL(/tier=longlived/);
    await expect.poll(() => figure(page, 'Total traces')).toBeLessThan(all);
    const longlived = await figure(page, 'Total traces');
    const traces = await exportRows(page);
    expect(traces.sum('Traces')).toBe(longlived);
    // The other tier holds the rest.
    await page.getByLabel('Retention').selectOption('shortlived');
    await expect.poll(() => figure(page, 'Total traces')).toBe(all - longlived);
  });
});

test.describe('The Deployments tab on the first screen', () => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    test(`at ${width} x ${height}: the first chart is on screen (a phone: within a screen and a half), axe clean in light and dark`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(`${TAB}?tab=deployments`);
      expect(await figure(page, 'Agent runs')).toBeGreaterThan(0);
      const chart = page.getByRole('region', { name: 'Nodes executed over time' });
      await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
      const plot = await chart.locator('.recharts-cartesian-grid').boundingBox();
      if (!plot) throw new Error('no plot');
      expect(plot.y + plot.height).toBeLessThanOrEqual(width > 640 ? height : height * 1.5);
      if (width > 640) {
        // The controls and both actions share one row (same bottom edge).
        const range = await page.getByLabel('Time range').boundingBox();
        const exportButton = await page.getByRole('button', { name: 'Export CSV' }).boundingBox();
        if (!range || !exportButton) throw new Error('controls not laid out');
        expect(
          Math.abs(exportButton.y + exportButton.height - range.y - range.height),
        ).toBeLessThanOrEqual(2);
      }
      await expectNoSeriousA11yViolations(page);
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(page.locator('html')).toHaveCSS('background-color', 'rgb(15, 20, 25)');
      await expectNoSeriousA11yViolations(page);
    });
  }
});
