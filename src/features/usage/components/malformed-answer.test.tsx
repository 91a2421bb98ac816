import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMBEDDED_CONSOLE_CONFIG, workspaceFixture } from '@/testing/console-fixtures';
import { renderApp } from '@/testing/render-app';

const WS = 'a0000000-0000-4000-8000-000000000001';

/** A server whose usage answers break the contract: a count sent as text. */
function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      if (url.pathname === '/_console/config') return Response.json(EMBEDDED_CONSOLE_CONFIG);
      if (url.pathname === '/_console/usage/workspaces') {
        return Response.json([workspaceFixture(WS, 'Acme')]);
      }
      if (url.pathname === '/_console/usage/orgs/current/billing/granular-usage') {
        const time = url.searchParams.get('start_time');
        return Response.json({
          stride: { days: 1, hours: 0 },
          usage: [{ time_bucket: time, dimensions: { workspace_id: WS }, traces: '12' }],
        });
      }
      return Response.json({ detail: 'Not Found' }, { status: 404 });
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('an answer that breaks the usage API contract', () => {
  it('is reported in words on the tab, with where it broke, and can be retried', async () => {
    stubServer();
    renderApp(`/settings/billing-and-usage/granular-usage?workspaces=${WS}`);
    expect(await screen.findByText('The usage data could not be read')).toBeVisible();
    expect(
      screen.getByText(
        /does not match the API at usage\[0\]\.traces: expected a non-negative integer, got "12"/,
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
