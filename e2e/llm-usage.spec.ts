import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { parseCsv } from '../server/usage/test/csv-parse';
import { expectNoSeriousA11yViolations } from './testing/axe';

const TAB = '/settings/billing-and-usage/granular-usage';

/** The figure an output labelled `label` shows, as a number (separators, $ and % dropped). */
async function figure(page: Page, label: string): Promise<number> {
  const output = page.getByLabel(label, { exact: true });
  await expect(output).toHaveText(/^\$?\d[\d,.]*%?$/);
  return Number((await output.textContent())?.replace(/[$,%]/g, ''));
}

/** The downloaded export of the tab: its header and rows. */
async function exportRows(page: Page) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const text = (await readFile(await file.path(), 'utf8')).replace(/^\uFEFF/, '');
  const [header = [], ...rows] = parseCsv(text);
  const sum = (column: string) =>
    rows.reduce((total, row) => total + Number(row[header.indexOf(column)] || 0), 0);
  return { name: file.suggestedFilename(), header, rows, sum };
}

test.describe('Granular Usage: LLM tokens & cost', () => {
  test('the totals equal the exported file, by project and by user', async ({ page }) => {
    await page.goto(`${TAB}?tab=llm&group_by=project&period=30d`);
    await expect(page.getByRole('tab', { name: 'LLM tokens & cost' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const input = await figure(page, 'Input tokens');
    const output = await figure(page, 'Output tokens');
    const cost = await figure(page, 'Cost');
    const unpriced = await figure(page, 'Unpriced runs');
    expect(input).toBeGreaterThan(0);
    // The demo has a model without a list price: its runs are named, with a way to price them.
    expect(unpriced).toBeGreaterThan(0);
    const priceIt = page.getByRole('link', { name: /^Price / }).first();
    await priceIt.click();
    const model = (await priceIt.textContent())?.replace(/^Price /, '') ?? '';
    await expect(page.getByLabel('Model name')).toHaveValue(model);

    const file = await exportRows(page);
    expect(file.name).toMatch(/^granular-usage_llm_.*_project\.csv$/);
    expect(file.sum('Input Tokens')).toBe(input);
    expect(file.sum('Output Tokens')).toBe(output);
    expect(file.sum('Unpriced Runs')).toBe(unpriced);
    // The card rounds to cents.
    expect(file.sum('Cost (USD)')).toBeCloseTo(cost, 2);

    await page.getByLabel('Group by').selectOption('user');
    await expect(page).toHaveURL(/group_by=user/);
    const byUser = await exportRows(page);
    expect(byUser.sum('Input Tokens')).toBe(input);
  });

  test('the chart shows cost or tokens, the URL keeps the choice, axe-clean in both schemes', async ({
    page,
  }) => {
    await page.goto(`${TAB}?tab=llm`);
    const chart = page.getByRole('region', { name: 'Cost over time (USD)' });
    await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await page.getByRole('radio', { name: 'Tokens' }).check();
    await expect(page).toHaveURL(/llm_metric=tokens/);
    await page.reload();
    await expect(page.getByRole('region', { name: 'Tokens over time' })).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoSeriousA11yViolations(page);
    }
  });

  test('the cards compare with the previous period of the same length, figures that period shows', async ({
    page,
  }) => {
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const open = (from: string, to: string) =>
      page.goto(`${TAB}?tab=llm&group_by=project&period=custom&from=${from}&to=${to}`);
    // Ten past days, and the ten before them.
    await open(day(-20), day(-11));
    const input = await figure(page, 'Input tokens');
    const inputChange = page.getByLabel('Input tokens vs. the previous 10 days');
    await expect(inputChange).toHaveText(/ before$/);
    const inputText = (await inputChange.textContent()) ?? '';
    const costText = (await page.getByLabel('Cost vs. the previous 10 days').textContent()) ?? '';
    await expect(page.getByText('Changes against the previous 10 days')).toBeVisible();

    await open(day(-30), day(-21));
    const previousInput = await figure(page, 'Input tokens');
    const previousCost = (await page.getByLabel('Cost', { exact: true }).textContent()) ?? '';
    expect(previousInput).toBeGreaterThan(0);
    // Each card names the previous period's figure as that period's own screen shows it.
    expect(inputText).toMatch(new RegExp(`; ${previousInput.toLocaleString('en-US')} before$`));
    expect(costText.endsWith(`; ${previousCost} before`)).toBe(true);
    // The change is the difference of the two screens, in tokens and in percent.
    const delta = input - previousInput;
    const sign = delta > 0 ? '+' : delta < 0 ? '−' : '';
    expect(inputText).toContain(`(${sign}${Math.abs(delta).toLocaleString('en-US')})`);
    const percent = `${delta >= 0 ? '+' : '−'}${(Math.abs(delta / previousInput) * 100).toFixed(1)}%`;
    expect(inputText).toContain(percent);
  });

  test('a legend entry narrows the cards and their comparison to its group, as on Traces', async ({
    page,
  }) => {
    await page.goto(`${TAB}?tab=llm&group_by=project&period=30d`);
    const all = await figure(page, 'Input tokens');
    const legend = page.getByRole('list', { name: 'Series' }).getByRole('button').first();
    const name = (await legend.locator('.legend-label').textContent()) ?? '';
    await legend.click();
    await expect(page).toHaveURL(/focus=/);
    await expect(page.getByText(`Showing ${name} only`)).toBeVisible();
    await expect.poll(async () => figure(page, 'Input tokens')).toBeLessThan(all);
    const focused = await figure(page, 'Input tokens');
    // The card is the group's row of the table.
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    await expect(row.getByRole('cell').first()).toHaveText(focused.toLocaleString('en-US'));
    await expect(page.getByLabel('Input tokens vs. the previous 30 days')).toHaveText(/ before$/);
  });
});
