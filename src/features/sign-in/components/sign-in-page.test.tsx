import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LimitStatus } from '@contracts/usage/usage-limits';
import type { ConsoleSession } from '@contracts/console-session';
import { renderApp } from '@/testing/render-app';
import { ACME, stubUsageServer } from '@/features/usage/testing/stub-usage-server';

const TAB = '/settings/billing-and-usage/granular-usage';

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const limit: LimitStatus = {
  workspace_id: ACME,
  scope: 'workspace',
  target_id: ACME,
  limit_type: 'monthly_traces',
  limit_value: 100,
  limit_id: 'b0000000-0000-4000-8000-000000000001',
  source: 'own',
  alert_thresholds: [],
  used: 10,
  month_start: '2026-11-01T00:00:00.000Z',
  resets_at: '2026-12-01T00:00:00.000Z',
  reached_at: null,
  refused: 0,
  alerts: [],
  can_edit: true,
};

/**
 * The console in apikey mode: the usage stub behind a sign-in that accepts `good` as a key of
 * `role`. Returns the sign-in bodies sent.
 */
function stubSignIn(role: 'admin' | 'viewer', good = 'lsv2_good_key') {
  stubUsageServer({ limits: [limit] });
  const usage = globalThis.fetch;
  let session: ConsoleSession = { mode: 'apikey', user: null };
  const signInBodies: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://console.test').pathname;
      if (path === '/_console/auth/session') return Response.json(session);
      if (path === '/_console/auth/sign-in') {
        const body = String(init?.body);
        signInBodies.push(body);
        if (body !== JSON.stringify({ apiKey: good })) {
          return Response.json({ detail: 'That API key was not accepted.' }, { status: 401 });
        }
        session = { mode: 'apikey', user: { name: 'API key …_key', role } };
        return Response.json(session);
      }
      if (path === '/_console/auth/sign-out') {
        session = { mode: 'apikey', user: null };
        return Response.json(session);
      }
      if (!session.user && path.startsWith('/_console/usage/')) {
        return Response.json({ detail: 'Sign in to use the console.' }, { status: 401 });
      }
      return usage(input, init);
    }),
  );
  return signInBodies;
}

const signInWith = async (key: string) => {
  const field = await screen.findByLabelText('API key', {}, { timeout: 10_000 });
  await userEvent.type(field, key);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
};

describe('signing in with an API key', () => {
  it('asks for a key, says in words why a wrong one fails, and keeps no copy of it', async () => {
    const bodies = stubSignIn('admin');
    renderApp(TAB);
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Sign in to the Usage Console' },
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    await signInWith('lsv2_wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('That API key was not accepted.');
    expect(screen.getByLabelText('API key')).toHaveValue('');
    expect(bodies).toEqual([JSON.stringify({ apiKey: 'lsv2_wrong' })]);
    expect(JSON.stringify({ ...sessionStorage, ...localStorage })).not.toContain('lsv2');
  });

  it('shows the tab, the user, the role and a sign-out button, which returns to the page', async () => {
    stubSignIn('admin');
    renderApp(TAB);
    await signInWith('lsv2_good_key');
    const user = await screen.findByRole('region', { name: 'Signed in' }, { timeout: 10_000 });
    expect(within(user).getByText('API key …_key')).toBeInTheDocument();
    expect(within(user).getByText('Role: Admin')).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: 'Granular Usage' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    // Signed in, the connection popover (where a key would be typed and kept) is not offered.
    expect(screen.queryByRole('button', { name: /^Connection:/ })).not.toBeInTheDocument();
    expect(JSON.stringify({ ...sessionStorage, ...localStorage })).not.toContain('lsv2');

    await userEvent.click(within(user).getByRole('button', { name: 'Sign out' }));
    expect(
      await screen.findByRole('heading', { name: 'Sign in to the Usage Console' }),
    ).toBeInTheDocument();
  });

  it("offers a viewer no limit editor, though the key's answer would allow it", async () => {
    stubSignIn('viewer');
    renderApp(TAB);
    await signInWith('lsv2_good_key');
    const card = within(
      await screen.findByRole('region', { name: 'Usage limits this month' }, { timeout: 10_000 }),
    );
    await waitFor(() => expect(card.getByText(/Read-only/)).toBeInTheDocument(), {
      timeout: 5_000,
    });
    expect(card.getByRole('meter', { name: 'Acme: all traces this month' })).toBeVisible();
    expect(card.queryByRole('button', { name: /limit for Acme/ })).toBeNull();
  });
});

describe("signing in with the organization's identity provider", () => {
  const stubOidc = () =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input), 'http://console.test').pathname;
        if (path === '/_console/auth/session') return Response.json({ mode: 'oidc', user: null });
        return Response.json({ detail: 'Sign in to use the console.' }, { status: 401 });
      }),
    );

  it('offers the provider, and says so when its round trip failed', async () => {
    stubOidc();
    renderApp('/?sign-in=failed');
    const link = await screen.findByRole(
      'link',
      { name: 'Sign in with your organization' },
      { timeout: 10_000 },
    );
    expect(link).toHaveAttribute('href', '/_console/auth/login');
    expect(screen.getByRole('alert')).toHaveTextContent('The sign-in did not complete.');
    expect(screen.queryByLabelText('API key')).not.toBeInTheDocument();
  });

  it('tells someone the console does not admit that they have no access', async () => {
    stubOidc();
    renderApp('/?sign-in=no-access');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'No access to the Usage Console' },
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/ask the person who runs it to admit your e-mail address or its domain/i),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in with another account' })).toHaveAttribute(
      'href',
      '/_console/auth/login',
    );
  });
});
