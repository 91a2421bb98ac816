import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { parseCsv } from '../server/usage/test/csv-parse';
import { expectNoSeriousA11yViolations } from './support/axe';

// Billing and Usage > Invoices against the demo data: the screen adds up, its CSV is the screen,
// and a price an admin changes reaches both the invoice and the Granular Usage estimate.
const INVOICES = '/settings/billing-and-usage/invoices';
const TAB = '/settings/billing-and-usage/granular-usage';

/** The month before the current one (UTC): a final invoice of the demo's traces. */
function lastMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
    .toISOString()
    .slice(0, 7);
}

const cents = (text: string | null) => Math.round(Number(text) * 100);

async function openInvoice(page: Page, month: string) {
  await page.goto(`${INVOICES}?month=${month}`);
  const table = page
    .getByRole('table')
    .filter({ has: page.locator('caption', { hasText: 'final' }) });
  await expect(table.locator('[data-total]')).toBeVisible({ timeout: 30_000 });
  return table;
}

test.describe('Invoices', () => {
  test('the total is the sum of the lines, and the CSV holds the same lines and total', async ({
    page,
  }) => {
    const month = lastMonth();
    const table = await openInvoice(page, month);
    const amounts = await table
      .locator('tbody [data-amount]')
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-amount')));
    const total = cents(await table.locator('[data-total]').getAttribute('data-total'));
    expect(amounts.length).toBe(7);
    expect(amounts.reduce((sum, amount) => sum + cents(amount), 0)).toBe(total);
    expect(total).toBeGreaterThan(0);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`invoice-${month}.csv`);
    const text = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
    const [header = [], ...rows] = parseCsv(text);
    const column = (name: string) => header.indexOf(name);
    const lines = rows.filter((row) => row[column('Section')] === 'invoice');
    expect(lines.map((row) => row[column('Amount USD')])).toEqual(amounts);
    const totalRow = rows.find((row) => row[column('Section')] === 'total');
    expect(cents(totalRow?.[column('Amount USD')] ?? null)).toBe(total);
  });

  test('the current month is a draft, to date and projected; axe is clean in both schemes', async ({
    page,
  }) => {
    await page.goto(INVOICES);
    await expect(page.getByRole('combobox', { name: 'Month (UTC)' })).toHaveValue(
      new Date().toISOString().slice(0, 7),
    );
    await expect(page.getByText('Spend to date', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Projected to month end', { exact: true })).toBeVisible();
    await expect(page.getByRole('table', { name: /By workspace/ })).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoSeriousA11yViolations(page);
    }
  });

  test('an admin’s new price changes the invoice and the Granular Usage estimate', async ({
    page,
  }) => {
    const month = lastMonth();
    const table = await openInvoice(page, month);
    const baseLine = table.locator('tr[data-metric="base_traces"]');
    await expect(baseLine).toContainText('$0.0005');
    const field = page.getByLabel('Base traces (USD per 1,000)');
    try {
      await field.fill('2.5');
      await page.getByRole('button', { name: 'Save plan' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      await expect(baseLine).toContainText('$0.0025');
      const amounts = await table
        .locator('tbody [data-amount]')
        .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-amount')));
      expect(amounts.reduce((sum, amount) => sum + cents(amount), 0)).toBe(
        cents(await table.locator('[data-total]').getAttribute('data-total')),
      );

      await page.goto(`${TAB}?tier=shortlived`);
      await expect(page.getByText(/^At \$[\d.]+ per 1,000 traces/)).toContainText('At $2.50');
    } finally {
      await page.goto(`${INVOICES}?month=${month}`);
      await page.getByLabel('Base traces (USD per 1,000)').fill('0.5');
      await page.getByRole('button', { name: 'Save plan' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    }
  });
});
