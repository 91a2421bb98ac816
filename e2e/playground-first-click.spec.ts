import { expect, test, type Page } from '@playwright/test';

/**
 * The playground's defaults, untouched, at the server's model pace: the first click demonstrates
 * each strategy, and Compare is right every time. Run at the default pace (1000 ms steps) and at
 * a brisk one: `DEMO_MODEL_STEP_MS=300 npx playwright test e2e/playground-first-click.spec.ts`.
 */
const COMPARE_RUNS = 10;

async function openDefaults(page: Page) {
  await page.goto('/tools/rollback-playground');
  await expect(
    page.getByText('Reaches the embedded demo deployment of this server.'),
  ).toBeVisible();
  await expect(page.getByLabel('Send the second message')).toHaveValue('tool-call');
  await expect(page.getByLabel('Delay before second message')).toHaveValue('0');
}

const successColor = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--success'));

test('the first click with the defaults rolls run 1 back, sent while run 1 was provably running', async ({
  page,
}) => {
  await openDefaults(page);
  await page.getByRole('button', { name: 'Run double-text' }).click();
  await expect(page.getByRole('list', { name: 'Thread messages' })).toBeVisible({
    timeout: 45_000,
  });
  const steps = await page
    .getByRole('list', { name: 'Timeline' })
    .locator(':scope > li')
    .allTextContents();
  const at = (text: string) => steps.findIndex((step) => step.includes(text));
  expect(at('Run 1 · AI · tool call get_weather')).toBeGreaterThan(-1);
  expect(at('Run 2 sent (rollback)')).toBeGreaterThan(at('Run 1 · AI · tool call get_weather'));
  expect(at('Run 1 ended')).toBeGreaterThan(at('Run 2 sent (rollback)'));
  const badge = page.locator('.pg-fate-words').first().getByText('Deleted', { exact: true });
  await expect(badge).toBeVisible();
  // The rollback did its job: success colours, not alarm red.
  const success = (await successColor(page)).trim();
  const color = await badge.evaluate((element) => getComputedStyle(element).color);
  const probe = await page.evaluate((value) => {
    const span = document.createElement('span');
    span.style.color = value;
    document.body.append(span);
    const rgb = getComputedStyle(span).color;
    span.remove();
    return rgb;
  }, success);
  expect(color).toBe(probe);
  // Nothing is flagged on the erased tool call: no model reads it any more.
  await expect(page.getByRole('list', { name: 'Erased messages' })).not.toContainText(
    'a model provider rejects',
  );
});

test(`Compare, ${COMPARE_RUNS} times in a row: each strategy shows its true fate, one line each above the details`, async ({
  page,
}) => {
  test.setTimeout(COMPARE_RUNS * 60_000);
  await openDefaults(page);
  const expected = [
    ['Rollback', 'Deleted', 'Finished'],
    ['Interrupt', 'Interrupted', 'Finished'],
    ['Reject', 'Completed', 'Refused (409)'],
    ['Enqueue', 'Finished first', 'Finished'],
  ] as const;
  for (let attempt = 1; attempt <= COMPARE_RUNS; attempt += 1) {
    await page.getByRole('button', { name: 'Compare strategies' }).click();
    const summary = page.getByRole('table', { name: 'Outcome of each strategy' });
    await expect(summary).toBeVisible({ timeout: 45_000 });
    const rows = summary.locator('tbody tr');
    await expect(rows).toHaveCount(4);
    for (const [index, [strategy, run1, run2]] of expected.entries()) {
      const cells = rows.nth(index).locator('th, td');
      await expect(cells.nth(0), `attempt ${attempt}`).toHaveText(new RegExp(strategy, 'i'));
      await expect(cells.nth(1).locator('.pg-badge'), `attempt ${attempt}`).toHaveText(run1);
      await expect(cells.nth(1).locator('.pg-badge'), `attempt ${attempt}`).toHaveClass(
        /pg-badge-success/,
      );
      await expect(cells.nth(2).locator('.pg-badge'), `attempt ${attempt}`).toHaveText(run2);
    }
    // The summary sits above the four columns.
    const summaryBox = await summary.boundingBox();
    const gridBox = await page.getByRole('list', { name: 'Strategy outcomes' }).boundingBox();
    expect((summaryBox?.y ?? 0) + (summaryBox?.height ?? 0)).toBeLessThanOrEqual(gridBox?.y ?? 0);
    // No bubble leaves its column.
    const overflow = await page.evaluate(() =>
      [...document.querySelectorAll('.compare-card')].flatMap((card) => {
        const right = card.getBoundingClientRect().right;
        return [...card.querySelectorAll('.message')]
          .map((bubble) => bubble.getBoundingClientRect().right - right)
          .filter((excess) => excess > 0.5);
      }),
    );
    expect(overflow, `attempt ${attempt}`).toEqual([]);
  }
});
