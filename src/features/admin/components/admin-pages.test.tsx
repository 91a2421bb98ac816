import { screen, within } from '@testing-library/react';
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

  it('show which fields a change changed, from what to what, with the states as recorded', async () => {
    stubServer(() =>
      Response.json({
        entries: [
          {
            id: '1',
            at: '2026-11-28T10:00:00.000Z',
            actor: 'ada@example.com',
            action: 'usage_limit.set',
            target: 'Acme (monthly_traces)',
            before: { limit_value: 90_000_000, limit_type: 'monthly_traces' },
            after: { limit_value: 80_000_000, limit_type: 'monthly_traces', note: 'x'.repeat(100) },
          },
        ],
        total: 1,
        offset: 0,
        limit: 50,
      }),
    );
    renderApp('/settings/billing-and-usage/audit-log');
    const row = (
      await screen.findByRole('rowheader', { name: /^Usage limit set/ }, { timeout: 10_000 })
    ).closest('tr');
    if (!row) throw new Error('no row');
    const changes = within(row).getAllByRole('listitem');
    expect(changes.map((item) => item.textContent)).toEqual([
      'limit_value: 90000000 → 80000000',
      `note: ${'x'.repeat(59)}…`,
    ]);
    expect(within(changes[1] as HTMLElement).getByTitle('x'.repeat(100))).toBeInTheDocument();
    expect(within(row).getByText('As recorded')).toBeInTheDocument();
    expect(row).toHaveTextContent('"limit_type":"monthly_traces"');
  });

  it('name roles in words on the API keys page', async () => {
    stubServer(() =>
      Response.json([
        {
          id: 'k1',
          short_key: 'lsv2_...abcd',
          description: 'CI sender',
          role: 'writer',
          read_only: false,
          created_at: '2026-11-28T10:00:00.000Z',
          revoked_at: null,
        },
      ]),
    );
    renderApp('/settings/billing-and-usage/api-keys');
    const row = (
      await screen.findByRole('rowheader', { name: 'CI sender' }, { timeout: 10_000 })
    ).closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByRole('cell', { name: 'Writer' })).toBeInTheDocument();
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
