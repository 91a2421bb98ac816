import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './testing/axe';

const TAB = '/settings/billing-and-usage/granular-usage';
const ADMIN = { 'x-api-key': 'lsv2_demo_admin' };
const count = (value: number) => value.toLocaleString('en-US');

test.describe('Usage limits on the usage tab', () => {
  test('set a limit: the bar, the date at this pace, the alert notice, reached, the month line and a 429', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    // The last workspace: the embedded deployment traces into the first one.
    const workspaces = (await (
      await request.get('/api/v1/workspaces', { headers: ADMIN })
    ).json()) as {
      id: string;
      display_name: string;
    }[];
    const target = workspaces.at(-1);
    if (!target) throw new Error('The demo data has no workspace.');
    const name = target.display_name;
    try {
      await page.goto(`${TAB}?workspaces=${target.id}`);
      const card = page.getByRole('region', { name: 'Usage limits this month' });
      const noLimit = card.getByText(/^No limit: [\d,]+ traces this month, none refused\.$/);
      await expect(noLimit).toBeVisible();
      const used = Number(
        /[\d,]+/.exec((await noLimit.textContent()) ?? '')?.[0].replaceAll(',', ''),
      );
      expect(used).toBeGreaterThan(100);

      await card.getByRole('button', { name: `Set a limit for ${name}` }).click();
      const field = card.getByLabel(`Traces a month for ${name}`);
      await field.fill('ten thousand');
      await card.getByRole('button', { name: 'Save limit' }).click();
      await expect(field).toHaveAccessibleDescription(
        /Use a whole number of traces, without decimals or a minus sign\./,
      );

      // 5 % above the month so far: at this pace it is reached before the month ends, and the
      // 50 % and 80 % alerts are crossed at once.
      const limit = used + Math.ceil(used * 0.05);
      await field.fill(count(limit));
      await card.getByRole('button', { name: 'Save limit' }).click();
      const meter = card.getByRole('meter', { name: `${name}: all traces this month` });
      await expect(meter).toHaveAttribute(
        'aria-valuetext',
        `${count(used)} of ${count(limit)} traces`,
      );
      await expect(
        card.getByText(
          /^At the current pace, the limit is reached on [A-Z][a-z]{2} \d{1,2} at \d\d:00 UTC\.$/,
        ),
      ).toBeVisible();
      await expect(card.getByRole('status')).toHaveText(
        /^80% of the limit reached on [A-Z][a-z]{2} \d{1,2} at \d\d:\d\d UTC\.$/,
      );
      await expectNoSeriousA11yViolations(page);

      // The month view draws the limit over the bars.
      await page.getByLabel('Aggregation').selectOption('calendar-month');
      await expect(page.getByText(`Monthly limit: ${count(limit)}`)).toBeVisible();

      // Lowered under the month's count: reached now, and new traces are refused.
      await card.getByRole('button', { name: `Change the limit for ${name}` }).click();
      await card.getByLabel(`Traces a month for ${name}`).fill(String(used - 1));
      await card.getByRole('button', { name: 'Save limit' }).click();
      await expect(
        card.getByText(
          /^Limit reached on [A-Z][a-z]{2} \d{1,2} at \d\d:\d\d UTC: new traces are refused until the month ends\.$/,
        ),
      ).toBeVisible();
      const id = randomUUID();
      const refused = await request.post('/api/v1/runs/batch', {
        headers: { ...ADMIN, 'x-tenant-id': target.id },
        data: {
          post: [{ id, trace_id: id, name: 'e2e', run_type: 'chain', session_name: 'e2e-limit' }],
        },
      });
      expect(refused.status()).toBe(429);
      expect(await refused.json()).toMatchObject({
        refused_run_ids: [id],
        workspace_id: target.id,
      });
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

  test('custom alert thresholds, removing a limit, the org default by keyboard, and read-only for a limited key', async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(120_000);
    const workspaces = (await (
      await request.get('/api/v1/workspaces', { headers: ADMIN })
    ).json()) as { id: string; display_name: string }[];
    const target = workspaces.at(-1);
    const readable = workspaces[0];
    if (!target || !readable) throw new Error('The demo data has no workspace.');
    const name = target.display_name;
    const removeAll = async () => {
      for (const workspace of workspaces) {
        const limits = (await (
          await request.get('/api/v1/usage-limits', {
            headers: { ...ADMIN, 'x-tenant-id': workspace.id },
          })
        ).json()) as { id: string }[];
        for (const { id } of limits) {
          await request.delete(`/api/v1/usage-limits/${id}`, { headers: ADMIN });
        }
      }
    };
    try {
      await page.goto(`${TAB}?workspaces=${target.id}`);
      const card = page.getByRole('region', { name: 'Usage limits this month' });
      await card.getByRole('button', { name: `Set a limit for ${name}` }).click();
      await card.getByLabel(`Traces a month for ${name}`).fill('900,000,000');
      const alertsAt = card.getByLabel('Alert at (% of the limit)');
      await expect(alertsAt).toHaveValue('50, 80, 100');
      await alertsAt.fill('25, 150');
      await card.getByRole('button', { name: 'Save limit' }).click();
      await expect(alertsAt).toHaveAccessibleDescription(
        /150 is not a whole percentage from 1 to 100\./,
      );
      await alertsAt.fill('90, 25');
      await card.getByRole('button', { name: 'Save limit' }).click();
      await expect(card.getByText('Alerts at 25%, 90%.')).toBeVisible();
      await expect(
        card.getByRole('meter', { name: `${name}: all traces this month` }),
      ).toHaveAttribute('aria-valuetext', /of 900,000,000 traces$/);
      await page.screenshot({
        path: testInfo.outputPath('limit-with-thresholds.png'),
        fullPage: true,
      });

      // Removed after a second click: the workspace is back to no limit.
      await card.getByRole('button', { name: `Remove the limit for ${name}` }).click();
      await expect(card.getByRole('group', { name: `Remove the limit for ${name}` })).toContainText(
        `Remove the limit of 900,000,000 traces for ${name}?`,
      );
      await card.getByRole('button', { name: 'Remove limit' }).click();
      await expect(
        card.getByText(/^No limit: [\d,]+ traces this month, none refused\.$/),
      ).toBeVisible();

      // The org default, by keyboard only: given now to every workspace without its own.
      await card.getByRole('button', { name: 'Set the org default' }).focus();
      await page.keyboard.press('Enter');
      const form = card.getByRole('form', { name: 'Org default limit' });
      await form.getByLabel('Limit type').focus();
      await page.keyboard.press('Tab');
      await expect(form.getByLabel('Default traces a month')).toBeFocused();
      await page.keyboard.type('8 000 000 000');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      await expect(
        form.getByLabel(
          'Also give it now to existing workspaces without their own limit of this type',
        ),
      ).toBeChecked();
      await page.keyboard.press('Tab');
      await expect(form.getByRole('button', { name: 'Save org default' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(
        card.getByText('All traces: 8,000,000,000 traces a month, for workspaces created since.'),
      ).toBeVisible();
      await expect(
        card.getByRole('meter', { name: `${name}: all traces this month` }),
      ).toHaveAttribute('aria-valuetext', /of 8,000,000,000 traces$/);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: testInfo.outputPath('org-default.png'), fullPage: true });

      // A key without usage-limits:manage sees the limits, changes nothing.
      await page.goto(`${TAB}?workspaces=${readable.id}`);
      await page.getByRole('button', { name: /^Connection:/ }).click();
      await page.getByLabel('API key').fill('lsv2_demo_limited');
      await page.getByRole('button', { name: 'Save connection' }).click();
      await expect(
        card.getByRole('meter', { name: `${readable.display_name}: all traces this month` }),
      ).toBeVisible();
      await expect(
        card.getByText(
          'Read-only: changing limits needs a key with the usage-limits:manage permission.',
        ),
      ).toBeVisible();
      await expect(card.getByRole('button', { name: /limit for/ })).toHaveCount(0);
      await expect(card.getByRole('form', { name: 'Org default limit' })).toHaveCount(0);
      await expect(card.getByRole('button', { name: 'Set the org default' })).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath('read-only.png'), fullPage: true });
      await page.getByRole('button', { name: /^Connection:/ }).click();
      await page.getByRole('button', { name: 'Use server connection' }).click();
    } finally {
      await removeAll();
    }
  });
  test('a limit that is empty, negative or not a number is refused in words beside the field, and nothing is saved', async ({
    page,
    request,
  }) => {
    const workspaces = (await (
      await request.get('/api/v1/workspaces', { headers: ADMIN })
    ).json()) as { id: string; display_name: string }[];
    const target = workspaces.at(-1);
    if (!target) throw new Error('The demo data has no workspace.');
    const name = target.display_name;
    const writes: string[] = [];
    page.on('request', (sent) => {
      if (/usage-limits/.test(sent.url()) && sent.method() !== 'GET') writes.push(sent.url());
    });
    await page.goto(`${TAB}?workspaces=${target.id}`);
    const card = page.getByRole('region', { name: 'Usage limits this month' });
    const noLimit = card.getByText(/^No limit: [\d,]+ traces this month, none refused\.$/);
    await expect(noLimit).toBeVisible();
    await card.getByRole('button', { name: `Set a limit for ${name}` }).click();
    const field = card.getByLabel(`Traces a month for ${name}`);
    const save = card.getByRole('button', { name: 'Save limit' });

    for (const [typed, words] of [
      ['', 'Enter the number of traces a month, like 50,000.'],
      ['-5000', 'Use a whole number of traces, without decimals or a minus sign.'],
      ['ten thousand', 'Use a whole number of traces, without decimals or a minus sign.'],
      ['12.5', 'Use a whole number of traces, without decimals or a minus sign.'],
    ] as const) {
      await field.fill(typed);
      await save.click();
      await expect(field, typed).toHaveAttribute('aria-invalid', 'true');
      await expect(field, typed).toHaveAccessibleDescription(
        new RegExp(`^${words.replace('.', '\\.')}`),
      );
      // The words are shown under the field, in the field's column, not in a toast elsewhere.
      const message = card.getByText(words, { exact: true });
      await expect(message).toBeVisible();
      const [input, shown] = await Promise.all([field.boundingBox(), message.boundingBox()]);
      if (!input || !shown) throw new Error('not laid out');
      expect(shown.y, typed).toBeGreaterThanOrEqual(input.y + input.height);
      expect(shown.y, typed).toBeLessThanOrEqual(input.y + input.height + 60);
      expect(Math.abs(shown.x - input.x), typed).toBeLessThanOrEqual(2);
      await expect(field).toHaveValue(typed);
    }

    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await expectNoSeriousA11yViolations(page);
        if (process.env.USAGE_SCREENSHOTS) {
          await card.getByRole('form', { name: `Limit for ${name}` }).screenshot({
            path: `src/features/usage/screenshots/limit-editor-error-${width}-${colorScheme}.png`,
          });
        }
      }
    }

    // Nothing was sent, and the workspace still has no limit once the editor is closed.
    expect(writes).toEqual([]);
    await card.getByRole('button', { name: 'Cancel' }).click();
    await expect(noLimit).toBeVisible();
    const limits = await (
      await request.get('/api/v1/usage-limits', { headers: { ...ADMIN, 'x-tenant-id': target.id } })
    ).json();
    expect(limits).toEqual([]);
  });
});
