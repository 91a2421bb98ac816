import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMBEDDED_CONSOLE_CONFIG } from '@/testing/console-fixtures';
import { renderApp } from '@/testing/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The console server: the config, and `answer` for every usage API request. */
function stubServer(answer: (path: string) => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      if (url.pathname === '/_console/config') return Response.json(EMBEDDED_CONSOLE_CONFIG);
      return answer(url.pathname);
    }),
  );
}

describe('the admin pages', () => {
  it('tell a non-admin in plain words that only an admin can see the keys', async () => {
    stubServer(() => Response.json({ detail: 'organization:manage required' }, { status: 403 }));
    renderApp('/settings/billing-and-usage/api-keys');
    const alert = await screen.findByRole('alert', undefined, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Only an admin can see the API keys.');
    expect(alert).not.toHaveTextContent('organization:manage');
  });

  it('offer a labelled, explained name field for a new key', async () => {
    stubServer(() => Response.json([]));
    renderApp('/settings/billing-and-usage/api-keys');
    const name = await screen.findByRole('textbox', { name: 'Name' }, { timeout: 10_000 });
    expect(name).toHaveAccessibleDescription(/who or what uses the key/);
    expect(await screen.findByText('No keys made yet. Make one above.')).toBeInTheDocument();
  });

  it('name each change in plain words beside its code, and keep an unknown code as it is', async () => {
    const entry = (id: string, action: string, target: string) => ({
      id,
      at: '2026-11-28T10:00:00.000Z',
      actor: 'ada@example.com',
      action,
      target,
      before: null,
      after: { limit_value: 1000 },
    });
    stubServer(() =>
      Response.json({
        entries: [
          entry('1', 'usage_limit.set', 'Acme (monthly_traces)'),
          entry('2', 'something.new', 'x'),
        ],
        total: 2,
        offset: 0,
        limit: 50,
      }),
    );
    renderApp('/settings/billing-and-usage/audit-log');
    const set = await screen.findByRole(
      'rowheader',
      { name: /^Usage limit set/ },
      { timeout: 10_000 },
    );
    expect(set).toHaveTextContent('Usage limit set usage_limit.set Acme (monthly_traces)');
    expect(screen.getByRole('rowheader', { name: /^something\.new/ })).toHaveTextContent(
      'something.new x',
    );
  });

  it('say what the audit log will list while it is empty', async () => {
    stubServer(() => Response.json({ entries: [], total: 0, offset: 0, limit: 50 }));
    renderApp('/settings/billing-and-usage/audit-log');
    expect(
      await screen.findByText(
        /Changes to limits, alerts, prices, the plan and API keys/,
        undefined,
        {
          timeout: 10_000,
        },
      ),
    ).toBeInTheDocument();
  });
});
