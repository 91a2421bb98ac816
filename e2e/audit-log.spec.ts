import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './testing/axe';

const TAB = '/settings/billing-and-usage/granular-usage';
const AUDIT = '/settings/billing-and-usage/audit-log';
const KEYS = '/settings/billing-and-usage/api-keys';
const ADMIN = { 'x-api-key': 'lsv2_demo_admin' };

test.describe('Admin pages: the audit log and API keys', () => {
  test('a limit changed in the console shows in the audit log with who, before and after', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const workspaces = (await (
      await request.get('/api/v1/workspaces', { headers: ADMIN })
    ).json()) as { id: string; display_name: string }[];
    const target = workspaces.at(-1);
    if (!target) throw new Error('The demo data has no workspace.');
    const name = target.display_name;
    try {
      await page.goto(`${TAB}?workspaces=${target.id}`);
      const card = page.getByRole('region', { name: 'Usage limits this month' });
      await card.getByRole('button', { name: `Set a limit for ${name}` }).click();
      await card.getByLabel(`Traces a month for ${name}`).fill('90000000');
      await card.getByRole('button', { name: 'Save limit' }).click();
      await card.getByRole('button', { name: `Change the limit for ${name}` }).click();
      await card.getByLabel(`Traces a month for ${name}`).fill('80000000');
      await card.getByRole('button', { name: 'Save limit' }).click();
      await expect(
        card.getByRole('button', { name: `Change the limit for ${name}` }),
      ).toBeVisible();

      await page.getByRole('link', { name: 'Audit log' }).click();
      await expect(page).toHaveURL(new RegExp(`${AUDIT}$`));
      const table = page.getByRole('table', { name: 'Audit log' });
      const latest = table.getByRole('row').nth(1);
      await expect(latest).toContainText('api-key:demo admin');
      await expect(latest).toContainText(`usage_limit.set ${name} (monthly_traces)`);
      const change = latest.getByRole('cell').nth(2);
      await expect(change.getByRole('listitem')).toHaveText(['limit_value: 90000000 → 80000000']);
      // The states as recorded, one click away.
      await change.getByText('As recorded').click();
      await expect(change).toContainText('"limit_value":80000000');
      await expect(latest.getByRole('time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      expect((await download).suggestedFilename()).toBe('audit-log.csv');

      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await expectNoSeriousA11yViolations(page);
      }
    } finally {
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

  test('a viewer key is shown once, works, and fails once revoked', async ({ page, request }) => {
    test.setTimeout(60_000);
    const label = `e2e viewer ${Date.now()}`;
    await page.goto(KEYS);
    await page.getByLabel('Name').fill(label);
    await page.getByRole('radio', { name: /^Viewer/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('New API key');
    await expect(shown).toHaveText(/^lsv2_[0-9a-f]{48}$/);
    await expect(page.getByText('it is not shown again')).toBeVisible();
    const key = (await shown.textContent()) ?? '';
    const row = page.getByRole('row', { name: new RegExp(label) });
    await expect(row).toContainText(`lsv2_...${key.slice(-4)}`);
    await expect(row).not.toContainText(key);
    await expect(row.getByRole('cell', { name: 'Viewer', exact: true })).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoSeriousA11yViolations(page);
    }

    const before = await request.get('/api/v1/workspaces', { headers: { 'x-api-key': key } });
    expect(before.status()).toBe(200);

    await row.getByRole('button', { name: `Revoke ${label}` }).click();
    await row.getByRole('button', { name: 'Revoke key' }).click();
    await expect(row).toContainText(/Revoked \d{4}-\d\d-\d\d/);
    const after = await request.get('/api/v1/workspaces', { headers: { 'x-api-key': key } });
    expect(after.status()).toBe(401);
    // Reloaded, the page no longer has the key anywhere.
    await page.reload();
    await expect(page.getByRole('row', { name: new RegExp(label) })).toBeVisible();
    await expect(page.getByText(key)).toHaveCount(0);
  });
  test('on a phone, a key with a long name leaves the pages one screen wide', async ({
    page,
    request,
  }) => {
    const label = `phone-check-${'very-long-key-label-'.repeat(9)}`.slice(0, 190);
    const created = await request.post('/api/v1/api-key', {
      headers: ADMIN,
      data: { description: label, role: 'viewer' },
    });
    expect(created.ok()).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of [KEYS, AUDIT, '/settings/billing-and-usage/invoices']) {
      await page.goto(path);
      await expect(page.getByRole('table').first()).toBeVisible();
      // The tables scroll inside their own boxes; the page itself never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      // The navigation stays two short lines, however short the page below it.
      const navigation = await page.getByRole('complementary').boundingBox();
      expect(navigation?.height).toBeLessThanOrEqual(120);
    }
    await page.goto(KEYS);
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
      /who or what uses the key/,
    );
  });
});
