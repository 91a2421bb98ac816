import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './testing/axe';

/**
 * Against the real `npm start` (embedded deployment, DEMO_MODEL_STEP_MS=1000: run 1 takes about
 * 3 s), so a 0.3 s delay after run 1's question streamed makes run 2 arrive while run 1 is busy.
 * PLAYGROUND_SCREENSHOTS=1 also writes the feature's screenshots.
 */
const shoot = async (page: Page, name: string, fromY?: number) => {
  if (!process.env.PLAYGROUND_SCREENSHOTS) return;
  const size = page.viewportSize();
  await page.screenshot({
    path: `src/features/playground/screenshots/${name}.png`,
    fullPage: true,
    // A phone page is very tall: from `fromY`, about two screens' worth.
    clip: fromY === undefined || !size ? undefined : { x: 0, y: fromY, ...size, height: 1600 },
  });
};

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
    timeout: 45_000,
  });
  await expect(run).toBeEnabled();
}

/**
 * No message bubble is wider than its list, and nothing in a bubble (a long word, a tool call's
 * arguments) reaches past the bubble's edge; the page does not scroll sideways.
 */
async function expectBubblesInside(page: Page) {
  const problems = await page.locator('.messages').evaluateAll((lists) =>
    lists.flatMap((list) => {
      const box = list.getBoundingClientRect();
      return [...list.querySelectorAll(':scope > .message')].flatMap((bubble) => {
        const own = bubble.getBoundingClientRect();
        const found: string[] = [];
        const name = (bubble.textContent ?? '').slice(0, 40);
        if (own.left < box.left - 0.5 || own.right > box.right + 0.5)
          found.push(
            `${name}: bubble ${own.left}-${own.right} outside list ${box.left}-${box.right}`,
          );
        if (bubble.scrollWidth > bubble.clientWidth)
          found.push(`${name}: content ${bubble.scrollWidth} px in ${bubble.clientWidth} px`);
        for (const inner of bubble.querySelectorAll('*')) {
          const part = inner.getBoundingClientRect();
          if (part.width > 0 && part.right > own.right + 0.5)
            found.push(
              `${name}: ${inner.className || inner.tagName} ends at ${part.right} > ${own.right}`,
            );
        }
        return found;
      });
    }),
  );
  expect(await page.locator('.messages > .message').count()).toBeGreaterThan(0);
  expect(problems).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
}

const fateWords = (page: Page) => page.locator('.pg-fate-words').first();
const run2Words = (page: Page) => page.locator('.pg-fate-run2');

test('rollback: run 1 streams, is rolled back, and what it wrote is shown as erased', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.url());
  });
  await openPlayground(page, 'rollback');
  await page.getByRole('button', { name: 'Run double-text' }).click();
  // Live: run 1's question arrives on its stream while the flow still runs.
  await expect(page.getByRole('list', { name: 'Streamed messages' })).toContainText(
    "what's the weather in sf?",
  );
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Run 2 sent');
  await shoot(page, '02-live');
  await expect(page.getByRole('list', { name: 'Thread messages' })).toBeVisible({
    timeout: 45_000,
  });
  await shoot(page, '03-rollback-result');

  // On one timeline: run 1's question streamed before run 2 was sent, and run 1's stream ended.
  const timeline = page.getByRole('list', { name: 'Timeline' });
  const lines = await timeline.locator(':scope > li').allTextContents();
  const question = lines.findIndex((line) =>
    line.includes("Run 1 · Human: what's the weather in sf?"),
  );
  const sent = lines.findIndex((line) => line.includes('Run 2 sent (rollback)'));
  const ended = lines.findIndex((line) => line.includes('Run 1 ended'));
  expect(question).toBeGreaterThan(-1);
  expect(sent).toBeGreaterThan(question);
  expect(ended).toBeGreaterThan(sent);
  expect(lines[ended]).toContain('RunRolledBack');

  const messages = page.getByRole('list', { name: 'Thread messages' }).locator(':scope > li');
  await expect(messages).toHaveCount(4);
  await expect(messages.nth(0)).toContainText("what's the weather in nyc?");
  await expect(messages.nth(1)).toContainText('AI · tool call');
  await expect(messages.nth(1).getByRole('list', { name: 'Tool calls' })).toContainText(
    'get_weather{"city":"nyc"}',
  );
  await expect(messages.nth(2)).toContainText('Tool result · get_weather');
  await expect(messages.nth(3)).toContainText(/^AI\s*Here is the weather/);
  await expect(page.getByRole('list', { name: 'Thread messages' })).not.toContainText('sf');

  const erased = page.getByRole('list', { name: 'Erased messages' }).locator(':scope > li');
  await expect(erased.first()).toContainText("what's the weather in sf?");
  await expect(page.getByText('rolled back — the deployment deleted run 1')).toBeVisible();
  await expect(fateWords(page)).toContainText('deleted — the deployment answers 404');
  await expect(run2Words(page)).toContainText('finished');
  // Both runs were traced to the embedded usage data as they started, the deleted one too.
  await expect(page.getByRole('region', { name: 'Billed traces' })).toContainText(
    'This flow billed 2 traces in project agent',
    { timeout: 15_000 },
  );

  await page.getByRole('button', { name: 'Show raw thread state' }).click();
  await expect(page.locator('.raw-json-body')).toContainText('"tool_call_id"');
  await expectNoSeriousA11yViolations(page);

  // The playground loads no chart code (the usage tab's chart chunk and recharts).
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /usage-chart|recharts/.test(url))).toEqual([]);

  // The billed traces' link opens the usage tab on that project alone.
  await page.getByRole('link', { name: 'See them in the usage tab' }).click();
  await expect(page.getByText(/^Showing/)).toHaveText(/Showing agent only/);
  await expect(
    page.getByRole('table', { name: 'Usage by group' }).getByRole('button', { name: 'agent' }),
  ).toHaveAttribute('aria-pressed', 'true');
});

test("at 390 x 844 a rollback's message bubbles stay inside their boxes, light and dark", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page, 'rollback');
  await runDoubleText(page);
  await expect(page.getByRole('list', { name: 'Erased messages' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Thread messages' }).getByRole('list', { name: 'Tool calls' }),
  ).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectBubblesInside(page);
    await expectNoSeriousA11yViolations(page);
  }
  const top = await page
    .getByRole('list', { name: 'Thread messages' })
    .evaluate((list) => list.getBoundingClientRect().top + window.scrollY - 60);
  await shoot(page, '09-rollback-phone-dark', top);
});

test('the form lives in the URL: a reload keeps it', async ({ page }) => {
  await openPlayground(page, 'interrupt');
  await page.getByLabel('First message').fill('is it raining in paris?');
  await expect(page).toHaveURL(/strategy=interrupt/);
  await expect(page).toHaveURL(/delay=0.3/);
  await page.reload();
  await expect(page.getByLabel('First message')).toHaveValue('is it raining in paris?');
  await expect(page.getByLabel('Strategy')).toHaveValue('interrupt');
  await expect(page.getByLabel('Delay before second message')).toHaveValue('0.3');
  await expectNoSeriousA11yViolations(page);
});

test('interrupt: what run 1 left stays in the thread, marked', async ({ page }) => {
  await openPlayground(page, 'interrupt');
  await runDoubleText(page);

  await expect(fateWords(page)).toContainText('interrupted');
  const messages = page.getByRole('list', { name: 'Thread messages' }).locator(':scope > li');
  await expect(messages.first()).toContainText("what's the weather in sf?");
  await expect(messages.first()).toContainText('Run 1 · interrupted, kept');
  await expect(messages.last()).toContainText('New York');
  expect(await messages.count()).toBeGreaterThan(4);
});

test('reject: run 2 is refused (409) and run 1 completes', async ({ page }) => {
  await openPlayground(page, 'reject');
  await runDoubleText(page);

  await expect(run2Words(page)).toContainText('refused (409)');
  await expect(fateWords(page)).toContainText('completed — run 2 was refused (409)');
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Run 2 refused (409)');
  const messages = page.getByRole('list', { name: 'Thread messages' }).locator(':scope > li');
  await expect(messages).toHaveCount(4);
  await expect(messages.first()).toContainText("what's the weather in sf?");
  await expect(page.getByRole('list', { name: 'Thread messages' })).not.toContainText('nyc');
  await shoot(page, '04-reject');
});

test('compare strategies shows the four threads side by side', async ({ page }) => {
  await openPlayground(page, 'rollback');
  await page.getByRole('button', { name: 'Compare strategies' }).click();
  const outcomes = page.getByRole('list', { name: 'Strategy outcomes' });
  await expect(outcomes).toBeVisible({ timeout: 45_000 });

  const card = (strategy: string) => outcomes.getByRole('listitem', { name: strategy });
  await expect(card('rollback')).toContainText('deleted — the deployment answers 404');
  await expect(card('interrupt')).toContainText('Interrupted');
  await expect(card('reject')).toContainText('refused (409)');
  await expect(card('enqueue')).toContainText('finished, then run 2 ran');
  await expect(outcomes.getByRole('list', { name: 'Thread messages' })).toHaveCount(4);
  const threadOf = (strategy: string) =>
    card(strategy).getByRole('list', { name: 'Thread messages' }).locator(':scope > li');
  await expect(threadOf('rollback')).toHaveCount(4);
  await expect(threadOf('enqueue')).toHaveCount(8);
  await expect(card('rollback').getByRole('list', { name: 'Erased messages' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shoot(page, '05-compare');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectBubblesInside(page);
  const top = await outcomes.evaluate((list) => list.getBoundingClientRect().top + window.scrollY);
  await shoot(page, '07-compare-phone', top);

  // Axe in both schemes at both sizes; in the dark scheme a strategy that did its job still
  // wears the success colour (the dark theme's own), not alarm red.
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoSeriousA11yViolations(page);
      const [badge, success] = await page
        .locator('.pg-badge-success')
        .first()
        .evaluate((element) => {
          const probe = document.createElement('span');
          probe.style.color = 'var(--success)';
          document.body.append(probe);
          const expected = getComputedStyle(probe).color;
          probe.remove();
          return [getComputedStyle(element).color, expected];
        });
      expect(badge, `${colorScheme} at ${width} px`).toBe(success);
    }
  }
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
  await expect(page.getByRole('list', { name: 'Timeline' })).toContainText('Run 1 started');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert')).toContainText('Cancelled');
  await expect(page.getByRole('button', { name: 'Run double-text' })).toBeEnabled();
});
