import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './testing/axe';

test('the shell opens at Billing and Usage and reaches both areas', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/settings\/billing-and-usage\/granular-usage$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Billing and Usage' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Granular Usage' })).toBeVisible();
  await expect(page.getByRole('tablist')).toHaveCount(1);
  await expectNoSeriousA11yViolations(page);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Rollback playground' })
    .click();
  await expect(page).toHaveURL(/\/tools\/rollback-playground$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Rollback playground' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Billing and Usage' })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1, name: 'Rollback playground' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Rollback playground' })).toBeVisible();
});

test('an unknown URL shows a not-found page with a way back', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('/no/such/page')).toBeVisible();
  await page.getByRole('link', { name: 'Go to Billing and Usage' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Billing and Usage' })).toBeVisible();
});

test('the server answers health checks and JSON 404s for unknown API paths', async ({
  request,
}) => {
  const health = await request.get('/healthz');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok' });

  const missing = await request.get('/_console/no-such-endpoint');
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toHaveProperty('detail');
});

test('a missing script answers 404, not the SPA page', async ({ request }) => {
  const response = await request.get('/assets/no-such-chunk.js');
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).not.toContain('text/html');
});

test('the build manifest is not served', async ({ request }) => {
  const response = await request.get('/.vite/manifest.json');
  expect(response.status()).toBe(404);
  expect(await response.text()).not.toContain('"file"');
});
