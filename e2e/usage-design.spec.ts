import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './testing/axe';
import { contrastRatio, deltaE2000, parseColour } from './testing/colour';

// The usage tab as a user first meets it: what the first screen holds, what a focus narrows,
// how the chart labels itself, and the dark theme.
const TAB = '/settings/billing-and-usage/granular-usage';

async function openLoaded(page: Page, query = '') {
  await page.goto(`${TAB}${query}`);
  await expect(page.getByLabel('Total traces')).toHaveText(/^\d[\d,]*$/);
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.chart-body.stale')).toHaveCount(0);
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
}

const countOf = (text: string | null) => Number((text ?? '').replaceAll(',', ''));

/** With USAGE_SCREENSHOTS=1, the state as a picture beside the feature. */
async function shoot(page: Page, name: string, part?: Locator) {
  if (!process.env.USAGE_SCREENSHOTS) return;
  const path = `src/features/usage/screenshots/${name}.png`;
  await (part ? part.screenshot({ path }) : page.screenshot({ path }));
}

/** Every X tick label's box, left to right. */
async function xTickBoxes(page: Page) {
  const labels = page.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
  const boxes = [];
  for (const label of await labels.all())
    boxes.push({ text: await label.textContent(), ...(await box(label)) });
  return boxes.sort((a, b) => a.x - b.x);
}

test.describe('Usage tab, first screen and focus', () => {
  test('at 1440 x 900 the controls, the cards and the whole plot are on the first screen; the actions share one row that a Copied note does not move', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openLoaded(page);
    const range = await box(page.getByLabel('Time range'));
    const curl = page.getByRole('button', { name: 'Copy as curl' });
    const exportButton = page.getByRole('button', { name: 'Export CSV' });
    const curlBefore = await box(curl);
    const exportBefore = await box(exportButton);
    // One row: the buttons sit beside the selects (same bottom edge), not on a second line.
    expect(Math.abs(curlBefore.y + curlBefore.height - range.y - range.height)).toBeLessThanOrEqual(
      2,
    );
    expect(
      Math.abs(exportBefore.y + exportBefore.height - range.y - range.height),
    ).toBeLessThanOrEqual(2);
    const cardsBefore = await box(page.getByLabel('Total traces'));
    const plot = await box(page.locator('.recharts-cartesian-grid'));
    expect(plot.y).toBeGreaterThan(cardsBefore.y);
    expect(plot.y + plot.height).toBeLessThanOrEqual(900);
    await expect(page.getByRole('list', { name: 'Series' })).toBeInViewport();

    await curl.click();
    await expect(page.getByText('Copied')).toBeVisible();
    expect(await box(curl)).toEqual(curlBefore);
    expect(await box(exportButton)).toEqual(exportBefore);
    expect((await box(page.getByLabel('Total traces'))).y).toBe(cardsBefore.y);
  });

  test('the Saved note of an export moves neither the actions nor the cards', async ({ page }) => {
    await openLoaded(page);
    const exportButton = page.getByRole('button', { name: 'Export CSV' });
    const curl = page.getByRole('button', { name: 'Copy as curl' });
    const before = await Promise.all(
      [exportButton, curl, page.getByLabel('Total traces')].map(box),
    );
    const downloading = page.waitForEvent('download');
    await exportButton.click();
    await downloading;
    await expect(page.getByRole('status').filter({ hasText: /^Saved / })).toBeVisible();
    expect(
      await Promise.all([exportButton, curl, page.getByLabel('Total traces')].map(box)),
    ).toEqual(before);
  });

  test('on a 390 x 844 phone the chart starts within the first screen and a half', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openLoaded(page);
    const plot = await box(page.locator('.recharts-cartesian-grid'));
    expect(plot.y + plot.height).toBeLessThanOrEqual(844 * 1.5);
  });

  test('a legend entry narrows the cards to its group and says so; the export says it holds every group', async ({
    page,
  }) => {
    await openLoaded(page);
    const all = countOf(await page.getByLabel('Total traces').textContent());
    const legend = page.getByRole('list', { name: 'Series' }).getByRole('button').first();
    const name = (await legend.locator('.legend-label').textContent()) ?? '';
    await legend.click();
    await expect(page).toHaveURL(/focus=/);
    await expect(page.getByText(`Showing ${name} only`)).toBeVisible();
    const card = page.getByLabel(`Total traces, ${name} only`);
    await expect(card).toHaveText(/^\d[\d,]*$/);
    const focused = countOf(await card.textContent());
    expect(focused).toBeLessThan(all);
    const row = page
      .getByRole('table', { name: 'Usage by group' })
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name, exact: true }) });
    await expect(row.getByRole('cell').first()).toHaveText(focused.toLocaleString('en-US'));
    await expect(page.getByText(`of ${all.toLocaleString('en-US')} in all groups`)).toBeVisible();
    await expect(page.getByLabel(`Estimated cost, ${name} only`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Export CSV (all groups)' })).toBeVisible();
    await expect(page.getByText(/Projected for \w+, all groups/)).toBeVisible();
  });

  test('a change in traces is drawn in the text colour, with an arrow, not green or red', async ({
    page,
  }) => {
    await openLoaded(page);
    const change = page.getByLabel(/Compared with the previous 30 days/);
    await expect(change).toHaveText(/^[▲▼] [+−]\d/);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const [color, text] = await change.evaluate((element) => [
        getComputedStyle(element).color,
        getComputedStyle(document.body).color,
      ]);
      expect(color, colorScheme).toBe(text);
    }
  });
});

test.describe('Usage chart craft', () => {
  test('Y ticks are round, evenly spaced and labelled with their exact value', async ({ page }) => {
    await openLoaded(page);
    const labels = await page
      .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
      .allTextContents();
    const values = labels.map((label) => {
      const match = /^(\d+(?:\.\d{1,2})?)([KMB]?)$/.exec(label.replaceAll(',', ''));
      if (!match) throw new Error(`not an exact tick label: ${label}`);
      return Number(match[1]) * ({ '': 1, K: 1e3, M: 1e6, B: 1e9 }[match[2] ?? ''] ?? 1);
    });
    values.sort((a, b) => a - b);
    expect(values.length).toBeGreaterThanOrEqual(3);
    expect(values[0]).toBe(0);
    const step = (values[1] ?? 0) - (values[0] ?? 0);
    expect(String(step / 10 ** Math.floor(Math.log10(step)))).toMatch(/^(1|2|2\.5|5)$/);
    values.forEach((value, index) => expect(value).toBe(index * step));
  });

  test('an hourly view of today: ticks at midnight and round hours, the future shaded "not yet" with no bars and no figures', async ({
    page,
  }) => {
    // The page's "now" is 12:30 UTC on a day the demo data has already passed (yesterday, by the
    // wall clock), whatever the hour the suite runs at. The server needs no override: it decides
    // nothing about "now" but where its seeded data ends (its start-up); partial and future
    // buckets are the page's call. So the hours after 12:30 hold traces on the server, and the
    // page must still draw none of them.
    const hour = 12;
    const now = new Date(Date.now() - 86_400_000);
    now.setUTCHours(hour, 30, 0, 0);
    await page.clock.setFixedTime(now);
    const today = now.toISOString().slice(0, 10);
    await openLoaded(page, `?period=custom&from=${today}&to=${today}&aggregation=hourly`);
    const ticks = await page
      .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')
      .allTextContents();
    expect(ticks[0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}\*?$/);
    for (const tick of ticks.slice(1))
      expect(tick).toMatch(/^(00|02|04|06|08|10|12|14|16|18|20|22):00\*?$/);
    await expect(
      page.locator('.recharts-surface').getByText('not yet', { exact: true }),
    ).toBeVisible();
    // One bar stack per hour that has begun, none after it (Recharts keeps a layer per bucket;
    // segments are drawn only where the hour has begun).
    await expect(
      page.locator('.recharts-bar-rectangle').filter({ has: page.locator('rect') }),
    ).toHaveCount(hour + 1);
    await expect(
      page.getByText(`${String(hour).padStart(2, '0')}:00 is still in progress (partial)`),
    ).toBeVisible();
    const plot = await box(page.locator('.recharts-cartesian-grid'));
    await page.mouse.move(plot.x + plot.width - 4, plot.y + plot.height / 2);
    await expect(page.locator('.chart-tooltip')).toContainText('Not yet');
    await expect(page.locator('.chart-tooltip')).not.toContainText('Total');
  });

  for (const days of [1, 3, 7]) {
    test(`on a 390 px phone, ${days} day${days === 1 ? '' : 's'} by the hour: ticks on midnight and whole hours from it, none overlapping`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const to = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const from = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
      await openLoaded(page, `?period=custom&from=${from}&to=${to}&aggregation=hourly`);
      const ticks = await xTickBoxes(page);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      // A date names each midnight (the first tick is the first midnight); other ticks are whole
      // hours a divisor of 24 apart, so they repeat on the same hours every day.
      expect(ticks[0]?.text).toMatch(/^[A-Z][a-z]{2} \d{1,2}\*?$/);
      const hours = ticks.map(({ text }) => {
        const time = /^(\d\d):00\*?$/.exec(text ?? '');
        return time ? Number(time[1]) : 0;
      });
      const step = (hours[1] ?? 0) === 0 ? 24 : (hours[1] ?? 24);
      expect(24 % step).toBe(0);
      hours.forEach((hour, index) => expect(hour, `tick ${index}`).toBe((index * step) % 24));
      // The dates are whole days apart, evenly (every midnight, or every second… when a date a
      // day would not fit), the first on the range's first day.
      const dates = ticks
        .filter(({ text }) => /^[A-Z]/.test(text ?? ''))
        .map(({ text }) => Date.parse(`${(text ?? '').replace('*', '')}, ${from.slice(0, 4)} UTC`));
      expect(dates[0]).toBe(Date.parse(`${from}T00:00:00Z`));
      const gaps = new Set(dates.slice(1).map((date, index) => date - (dates[index] ?? 0)));
      expect(gaps.size).toBeLessThanOrEqual(1);
      for (const gap of gaps) expect(gap % 86_400_000).toBe(0);
      const plot = await box(page.locator('.recharts-cartesian-grid'));
      for (const [index, tick] of ticks.entries()) {
        const next = ticks[index + 1];
        if (next) expect(tick.x + tick.width, `${tick.text} / ${next.text}`).toBeLessThan(next.x);
        expect(tick.x).toBeGreaterThanOrEqual(0);
        expect(tick.x + tick.width).toBeLessThanOrEqual(390);
      }
      expect(plot.x + plot.width).toBeLessThanOrEqual(390);
      await shoot(page, `granular-usage-390-hourly-${days}d`, page.locator('.chart-panel'));
    });
  }

  test('a mouse click on the chart draws no focus ring; the keyboard does', async ({ page }) => {
    await openLoaded(page);
    // Above the bars: a click on the plot, not on a bar (which would open a finer range).
    const plot = await box(page.locator('.recharts-cartesian-grid'));
    await page.mouse.click(plot.x + 8, plot.y + 4);
    const outline = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        return active ? getComputedStyle(active).outlineStyle : 'none';
      });
    expect(
      await page.evaluate(() => document.activeElement?.closest('.recharts-wrapper') != null),
    ).toBe(true);
    expect(await outline()).toBe('none');
    await page.getByRole('list', { name: 'Series' }).getByRole('button').first().focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await outline()).not.toBe('none');
  });

  test('a long legend name ends in an ellipsis and is whole in its title', async ({ page }) => {
    await openLoaded(page, '?group_by=user');
    const entries = page.getByRole('list', { name: 'Series' }).getByRole('button');
    const count = await entries.count();
    for (let index = 0; index < count; index += 1) {
      const label = entries.nth(index).locator('.legend-label');
      const [overflowing, ellipsis] = await label.evaluate((element) => [
        element.scrollWidth > element.clientWidth,
        getComputedStyle(element).textOverflow,
      ]);
      if (overflowing) expect(ellipsis).toBe('ellipsis');
      await expect(entries.nth(index)).toHaveAttribute(
        'title',
        new RegExp(`^${(await label.textContent())?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `),
      );
    }
  });
});

test.describe('Dark theme', () => {
  test('the series colours stand apart from each other and 3:1 off the plot, light and dark', async ({
    page,
  }) => {
    // Grouped by user: ten groups and "Other", every colour of the palette on one chart.
    await page.emulateMedia({ colorScheme: 'light' });
    await openLoaded(page, '?group_by=user');
    const legend = page.getByRole('list', { name: 'Series' }).getByRole('button');
    const drawnFills = () =>
      page
        .locator('.chart-panel .recharts-bar-rectangle rect')
        .evaluateAll((rects) => [...new Set(rects.map((rect) => getComputedStyle(rect).fill))]);
    let previous: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expect.poll(drawnFills).not.toEqual(previous);
      const fills = await drawnFills();
      previous = fills;
      // The plot's own background: the first ancestor of the chart that paints one.
      const background = await page.locator('.chart-panel .recharts-surface').evaluate((svg) => {
        for (let node: Element | null = svg; node; node = node.parentElement) {
          const colour = getComputedStyle(node).backgroundColor;
          if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
        }
        return 'rgb(255, 255, 255)';
      });
      // Each legend entry has a colour of its own on the chart; "Other" is one of them.
      await expect(legend.filter({ hasText: /^Other/ })).toHaveCount(1);
      expect(fills).toHaveLength(await legend.count());
      expect(fills.length).toBeGreaterThanOrEqual(11);
      // WCAG 1.4.11 (non-text contrast): 3:1 against the background; and CIEDE2000 of 10 or
      // more between every two (about 1 is just noticeable; 10 reads as another colour at a glance).
      for (const fill of fills) {
        expect(
          contrastRatio(parseColour(fill), parseColour(background)),
          `${colorScheme}: ${fill} on ${background}`,
        ).toBeGreaterThanOrEqual(3);
      }
      for (const [index, a] of fills.entries()) {
        for (const b of fills.slice(index + 1)) {
          expect(
            deltaE2000(parseColour(a), parseColour(b)),
            `${colorScheme}: ${a} vs ${b}`,
          ).toBeGreaterThanOrEqual(10);
        }
      }
      await shoot(page, `granular-usage-series-by-user-1440-${colorScheme}`);
    }
  });

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    test(`follows the system at ${width} px, with axe clean in both schemes`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: 'light' });
      await openLoaded(page);
      await expectNoSeriousA11yViolations(page);
      const lightBars = await page
        .locator('.recharts-bar-rectangle rect')
        .first()
        .getAttribute('fill');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(page.locator('html')).toHaveCSS('background-color', 'rgb(15, 20, 25)');
      await expect(page.locator('.stat').first()).toHaveCSS('background-color', 'rgb(22, 27, 34)');
      // The chart takes the scheme from a media-query listener: wait for its repaint.
      await expect(page.locator('.recharts-bar-rectangle rect').first()).not.toHaveAttribute(
        'fill',
        lightBars ?? '',
      );
      await expectNoSeriousA11yViolations(page);
    });
  }
});
