import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMBEDDED_CONSOLE_CONFIG, workspaceFixture } from '@/testing/console-fixtures';
import { renderApp } from '@/testing/render-app';

const WS = 'a0000000-0000-4000-8000-000000000001';

/** The console server: config, one workspace, and usage answers held until `release`. */
function stubServer() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      if (url.pathname === '/_console/config') return Response.json(EMBEDDED_CONSOLE_CONFIG);
      if (url.pathname === '/_console/usage/workspaces') {
        return Response.json([workspaceFixture(WS, 'Acme')]);
      }
      if (url.pathname.startsWith('/_console/usage/orgs/current/billing/granular-usage')) {
        await released;
        return Response.json({ stride: { days: 1, hours: 0 }, usage: [] });
      }
      throw new Error(`unexpected request: ${url.pathname}`);
    }),
  );
  return release;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the usage tab says how fresh its data is', () => {
  it('explains ingestion-time counting at once, and shows "Data as of" once the data arrived', async () => {
    const release = stubServer();
    renderApp('/settings/billing-and-usage/granular-usage');
    expect(
      await screen.findByText(/Counts go by ingestion time: a trace counts when it is received/),
    ).toBeVisible();
    expect(screen.queryByText(/Data as of/)).toBeNull();

    const before = Date.now();
    release();
    const note = await screen.findByText(/Data as of/, { selector: 'p' });
    expect(note).toHaveTextContent(/^Data as of \w{3} \d{1,2}, \d{4} \d{2}:\d{2}:\d{2} UTC\./);
    const time = note.querySelector('time');
    const shownMs = Date.parse(time?.getAttribute('dateTime') ?? '');
    expect(shownMs).toBeGreaterThanOrEqual(before - 1000);
    expect(shownMs).toBeLessThanOrEqual(Date.now());
  });
});
