import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';

/**
 * Against the real `npm start` (embedded deployment, DEMO_MODEL_STEP_MS=300: run 1 takes about
 * 0.9 s), so a 0.3 s delay makes the second message arrive while run 1 is busy.
 */
async function openPlayground(page: Page, strategy: string) {
  await page.goto('/tools/rollback-playground');
  await expect(
    page.getByText('Reaches the embedded demo deployment of this server.'),
  ).toBeVisible();
  await page.getByLabel('Delay before second message').fill('0.3');
  await page.getByLabel('Strategy').selectOption(strategy);
}

async function runDoubleText(page: Page) {
  const run = page.getByRole('button', { name: 'Run double-text' });
  await run.click();
  await expect(run).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  await expect(page.getByRole('list', { name: 'Thread messages' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(run).toBeEnabled();
}

const fateWords = (page: Page) => page.locator('.pg-fate-words');

test('rollback: only run 2 survives and run 1 is deleted', async ({ page }) => {
  await openPlayground(page, 'rollback');
  await runDoubleText(page);

  const messages = page.getByRole('list', { name: 'Thread messages' }).locator(':scope > li');
  await expect(messages).toHaveCount(4);
  await expect(messages.nth(0)).toContainText('Human');
  await expect(messages.nth(0)).toContainText("what's the weather in nyc?");
  await expect(messages.nth(1)).toContainText('AI · tool call');
  await expect(messages.nth(1).getByRole('list', { name: 'Tool calls' })).toContainText(
    'get_weather{"city":"nyc"}',
  );
  await expect(messages.nth(2)).toContainText('Tool result · get_weather');
  await expect(messages.nth(3)).toContainText(/^AI\s*Here is the weather/);
  await expect(page.getByRole('list', { name: 'Thread messages' })).not.toContainText('sf');

  await expect(fateWords(page)).toContainText('deleted — the deployment answers 404');
  await expect(page.getByText('Deleted', { exact: true })).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Timeline' });
  for (const step of ['Thread created', 'Run 1 created', 'Run 2 created (rollback)']) {
    await expect(timeline).toContainText(step);
  }
  await expect(timeline).toContainText('Run 1 looked up');

  await page.getByRole('button', { name: 'Show raw thread state' }).click();
  await expect(page.locator('.raw-json-body')).toContainText('"tool_call_id"');
  await expectNoSeriousA11yViolations(page);
});

test('interrupt: run 1 is kept as interrupted and its start stays in the thread', async ({
  page,
}) => {
  await openPlayground(page, 'interrupt');
  await runDoubleText(page);

  await expect(fateWords(page)).toContainText('interrupted');
  const messages = page.getByRole('list', { name: 'Thread messages' }).locator(':scope > li');
  await expect(messages.first()).toContainText("what's the weather in sf?");
  await expect(messages.last()).toContainText('New York');
  expect(await messages.count()).toBeGreaterThan(4);
});

test('reject: run 2 is refused with 409 and run 1 answers alone', async ({ page }) => {
  await openPlayground(page, 'reject');
  await runDoubleText(page);

  await expect(fateWords(page)).toContainText('second run rejected (409,');
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Run 2 rejected');
  const messages = page.getByRole('list', { name: 'Thread messages' }).locator(':scope > li');
  await expect(messages).toHaveCount(4);
  await expect(messages.first()).toContainText("what's the weather in sf?");
  await expect(page.getByRole('list', { name: 'Thread messages' })).not.toContainText('nyc');
});

test('compare strategies shows the four outcomes side by side', async ({ page }) => {
  await openPlayground(page, 'rollback');
  await page.getByRole('button', { name: 'Compare strategies' }).click();
  const outcomes = page.getByRole('list', { name: 'Strategy outcomes' });
  await expect(outcomes).toBeVisible({ timeout: 20_000 });

  await expect(outcomes.getByRole('listitem', { name: 'rollback' })).toContainText(
    'deleted — the deployment answers 404',
  );
  await expect(outcomes.getByRole('listitem', { name: 'interrupt' })).toContainText('Interrupted');
  await expect(outcomes.getByRole('listitem', { name: 'reject' })).toContainText(
    'second run rejected (409',
  );
  await expect(outcomes.getByRole('listitem', { name: 'enqueue' })).toContainText(
    'finished, then run 2 ran',
  );
  await expect(outcomes.getByRole('listitem', { name: 'rollback' })).toContainText(/Messages\s*4/);
  await expect(outcomes.getByRole('listitem', { name: 'enqueue' })).toContainText(/Messages\s*8/);
  await expectNoSeriousA11yViolations(page);
});

test('an unknown assistant and a bad form are explained in plain words', async ({ page }) => {
  await openPlayground(page, 'rollback');
  await page.getByLabel('Delay before second message').fill('');
  await page.getByLabel('Assistant id').fill('no-such-graph');
  await page.getByRole('button', { name: 'Run double-text' }).click();
  await expect(page.getByText('Enter the delay in seconds (0 is allowed).')).toBeVisible();
  await expect(page.getByLabel('Delay before second message')).toBeFocused();

  await page.getByLabel('Delay before second message').fill('0');
  await page.getByRole('button', { name: 'Run double-text' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Unknown assistant');
  await expect(alert).toContainText('"no-such-graph"');
  await expect(page.getByRole('button', { name: 'Run double-text' })).toBeEnabled();
});

test('Cancel stops a flow in flight and says so', async ({ page }) => {
  await openPlayground(page, 'rollback');
  await page.getByLabel('Delay before second message').fill('30');
  await page.getByRole('button', { name: 'Run double-text' }).click();
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Run 1 created');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert')).toContainText('Cancelled');
  await expect(page.getByRole('button', { name: 'Run double-text' })).toBeEnabled();
});
