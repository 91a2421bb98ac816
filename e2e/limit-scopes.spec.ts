import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './testing/axe';

const TAB = '/settings/billing-and-usage/granular-usage';
const ADMIN = { 'x-api-key': 'lsv2_demo_admin' };

test.describe('Project, user and spend limits on the limits card', () => {
  test('the editor offers project, user and dollar limits, and a saved one shows in the table', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const workspaces = (await (
      await request.get('/api/v1/workspaces', { headers: ADMIN })
    ).json()) as { id: string; display_name: string }[];
    const target = workspaces.at(-1);
    if (!target) throw new Error('The demo data has no workspace.');
    const project = await request.post('/api/v1/sessions', {
      headers: { ...ADMIN, 'x-tenant-id': target.id },
      data: { name: `e2e-scoped-${randomUUID().slice(0, 8)}` },
    });
    const projectId = ((await project.json()) as { id: string }).id;
    const created: string[] = [];
    try {
      await page.goto(`${TAB}?workspaces=${target.id}`);
      const card = page.getByRole('region', { name: 'Project, user and spend limits' });
      const form = card.getByRole('form', { name: 'Add a project, user or spend limit' });
      const scope = form.getByRole('combobox', { name: 'Limit of' });
      await expect(scope.getByRole('option')).toHaveText([
        'A project (traces a month)',
        'A user (traces a month)',
        'The workspace’s spend (dollars a month)',
      ]);

      // The target picker lists the workspace's projects with traces, by name, from the keyboard.
      const picker = form.getByRole('combobox', { name: 'Project', exact: true });
      const choose = picker.getByRole('option', { name: 'Choose a project' });
      await expect(choose).toBeAttached();
      await expect.poll(() => picker.getByRole('option').count()).toBeGreaterThan(3);
      const first = picker.getByRole('option').nth(1);
      const firstId = (await first.getAttribute('value')) ?? '';
      await picker.focus();
      await page.keyboard.press('ArrowDown');
      await expect(picker).toHaveValue(firstId);
      await form.getByRole('textbox', { name: 'Traces a month', exact: true }).fill('500');
      await form.getByRole('button', { name: 'Add limit' }).click();
      // Listed with the traces the project has this month (the demo's, up to now).
      await expect(card.getByRole('row').filter({ hasText: firstId })).toContainText(
        /500 traces a month\s*[\d,]+ traces/,
      );

      // A project with no traces yet is not listed: its id typed by hand.
      await expect(picker.getByRole('option', { name: projectId })).toHaveCount(0);
      await picker.selectOption({ label: 'Another project: enter its id' });
      await form.getByRole('textbox', { name: 'Project id', exact: true }).fill(projectId);
      await form.getByRole('textbox', { name: 'Traces a month', exact: true }).fill('1234');
      await form.getByRole('button', { name: 'Add limit' }).click();
      const projectRow = card.getByRole('row').filter({ hasText: projectId });
      await expect(projectRow).toContainText('1,234 traces a month');

      await scope.selectOption({ label: 'A user (traces a month)' });
      const users = form.getByRole('combobox', { name: 'User', exact: true });
      await expect.poll(() => users.getByRole('option').count()).toBeGreaterThan(2);
      await expect(users.getByRole('option', { name: /@/ }).first()).toBeAttached();
      await expectNoSeriousA11yViolations(page);

      await scope.selectOption({ label: 'The workspace’s spend (dollars a month)' });
      await form.getByRole('textbox', { name: 'Dollars a month', exact: true }).fill('10');
      await form
        .getByRole('textbox', { name: 'Extended retention share (%)', exact: true })
        .fill('50');
      await form.getByRole('button', { name: 'Add limit' }).click();
      // $10 at the plan's prices, half on extended traces ($0.005) and half on base ($0.0005).
      await expect(card.getByRole('row').filter({ hasText: 'Spend' })).toContainText(
        '$10.00 a month, 50% extended: 11,000 traces, 1,000 extended',
      );
      await expectNoSeriousA11yViolations(page);
    } finally {
      const listed = (await (
        await request.get('/api/v1/usage-limits', {
          headers: { ...ADMIN, 'x-tenant-id': target.id },
        })
      ).json()) as { id: string; scope?: string }[];
      created.push(...listed.filter((limit) => limit.scope).map((limit) => limit.id));
      for (const id of created) {
        await request.delete(`/api/v1/usage-limits/${id}`, { headers: ADMIN });
      }
    }
  });
});
