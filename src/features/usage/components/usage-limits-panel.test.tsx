import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LimitStatus } from '@contracts/usage/usage-limits';
import { renderApp } from '@/testing/render-app';
import { ACME, GLOBEX, stubUsageServer } from '../testing/stub-usage-server';

const TAB = '/settings/billing-and-usage/granular-usage';

afterEach(() => {
  vi.unstubAllGlobals();
});

function status(workspaceId: string, fields: Partial<LimitStatus>): LimitStatus {
  return {
    workspace_id: workspaceId,
    scope: 'workspace',
    target_id: workspaceId,
    limit_type: 'monthly_traces',
    limit_value: null,
    limit_id: null,
    source: null,
    alert_thresholds: [],
    used: 0,
    month_start: '2026-11-01T00:00:00.000Z',
    resets_at: '2026-12-01T00:00:00.000Z',
    reached_at: null,
    refused: 0,
    alerts: [],
    can_edit: true,
    ...fields,
  };
}

// The whole tab renders first (workspaces, then the view): slow on a loaded machine.
const panel = async () =>
  within(
    await screen.findByRole('region', { name: 'Usage limits this month' }, { timeout: 10_000 }),
  );

describe('the usage limits card', () => {
  it('shows each workspace against its limit: a bar, the date at this pace, the reached notice', async () => {
    stubUsageServer({
      limits: [
        status(ACME, { limit_value: 100, source: 'own', used: 99 }),
        status(GLOBEX, {
          limit_value: 100,
          source: 'own',
          used: 100,
          refused: 7,
          reached_at: '2026-11-20T14:05:00.000Z',
          alerts: [
            { threshold: 50, crossed_at: '2026-11-10T09:00:00.000Z' },
            { threshold: 100, crossed_at: '2026-11-20T14:05:00.000Z' },
          ],
        }),
      ],
    });
    renderApp(TAB);
    const card = await panel();
    const acme = await card.findByRole(
      'meter',
      { name: 'Acme: all traces this month' },
      { timeout: 10_000 },
    );
    // One table, a row per workspace, each with one short action (its name says whose).
    const rows = within(card.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'AcmeAll traces',
      'GlobexAll traces',
    ]);
    expect(card.getByRole('button', { name: 'Change the limit for Acme' })).toHaveTextContent(
      /^Change$/,
    );
    expect(acme).toHaveAttribute('aria-valuenow', '99');
    expect(acme).toHaveAttribute('aria-valuetext', '99 of 100 traces');
    // 99 of 100: an hour or more away past the month's first days, "within the hour" before.
    expect(card.getByText(/At the current pace, the limit is reached/)).toHaveTextContent(
      /reached (on [A-Z][a-z]{2} \d{1,2} at \d\d:00 UTC|within the hour)\.$/,
    );
    expect(
      card.getByText(
        'Limit reached on Nov 20 at 14:05 UTC: new traces are refused until the month ends.',
      ),
    ).toBeVisible();
    expect(
      card.getByText(
        (_text, element) =>
          element?.tagName === 'P' &&
          /^100 of 100 traces \(100%\) · 7 refused$/.test(element.textContent ?? ''),
      ),
    ).toBeVisible();
  });

  it('edits a limit inline: field errors in words, then a PUT for the workspace', async () => {
    const user = userEvent.setup();
    const puts: { tenant: string | null; body: unknown }[] = [];
    stubUsageServer({
      limits: [status(ACME, { used: 40 })],
      onPut: async (request) => {
        puts.push({ tenant: request.headers.get('x-tenant-id'), body: await request.json() });
        return puts.length === 1
          ? Response.json(
              { detail: 'This API key lacks the usage-limits:manage permission.' },
              { status: 403 },
            )
          : Response.json({
              id: 'b0000000-0000-4000-8000-000000000001',
              tenant_id: ACME,
              limit_type: 'monthly_traces',
              limit_value: 50000,
              created_at: '2026-11-25T08:00:00.000Z',
              updated_at: '2026-11-25T08:00:00.000Z',
            });
      },
    });
    renderApp(TAB);
    const card = await panel();
    expect(await card.findByText('No limit: 40 traces this month, none refused.')).toBeVisible();
    await user.click(card.getByRole('button', { name: 'Set a limit for Acme' }));
    // The editor is a chunk of its own, loaded on the first click.
    const field = await card.findByRole('textbox', { name: 'Traces a month for Acme' });

    await user.click(card.getByRole('button', { name: 'Save limit' }));
    expect(field).toHaveAccessibleDescription(/Enter the number of traces a month, like 50,000\./);
    await user.type(field, '12.5');
    expect(field).toHaveAccessibleDescription(
      /Use a whole number of traces, without decimals or a minus sign\./,
    );
    expect(puts).toEqual([]);

    await user.clear(field);
    await user.type(field, '50,000');
    const alertsAt = card.getByRole('textbox', { name: 'Alert at (% of the limit)' });
    expect(alertsAt).toHaveValue('50, 80, 100');
    await user.clear(alertsAt);
    await user.type(alertsAt, '25, 120');
    await user.click(card.getByRole('button', { name: 'Save limit' }));
    expect(alertsAt).toHaveAccessibleDescription(/120 is not a whole percentage from 1 to 100\./);
    expect(puts).toEqual([]);
    await user.clear(alertsAt);
    await user.type(alertsAt, '90, 25');
    await user.click(card.getByRole('button', { name: 'Save limit' }));
    expect(
      await card.findByText('This API key lacks the usage-limits:manage permission.'),
    ).toBeVisible();
    await user.click(card.getByRole('button', { name: 'Save limit' }));
    expect(await card.findByRole('button', { name: 'Set a limit for Acme' })).toBeVisible();
    const body = { limit_type: 'monthly_traces', limit_value: 50000, alert_thresholds: [25, 90] };
    expect(puts).toEqual([
      { tenant: ACME, body },
      { tenant: ACME, body },
    ]);
  }, 20_000);

  it('is read-only for a key that cannot change limits', async () => {
    stubUsageServer({
      limits: [status(ACME, { limit_value: 10, source: 'own', used: 2, can_edit: false })],
    });
    renderApp(TAB);
    const card = await panel();
    expect(await card.findByRole('meter', { name: 'Acme: all traces this month' })).toBeVisible();
    expect(card.queryByRole('button', { name: /limit for Acme/ })).toBeNull();
    expect(
      await card.findByText('No org default: new workspaces start without a limit.'),
    ).toBeVisible();
    expect(card.queryByRole('form', { name: 'Org default limit' })).toBeNull();
    expect(card.queryByRole('button', { name: 'Set the org default' })).toBeNull();
    expect(
      card.getByText(
        /Read-only: changing limits needs a key with the usage-limits:manage permission/,
      ),
    ).toBeVisible();
  });

  it('removes a limit after a second click, and sets the org default for existing workspaces too', async () => {
    const user = userEvent.setup();
    const writes: { method: string; path: string; body: unknown }[] = [];
    const limitId = 'b0000000-0000-4000-8000-000000000009';
    stubUsageServer({
      limits: [status(ACME, { limit_value: 100, limit_id: limitId, source: 'own', used: 40 })],
      defaults: [
        {
          limit_type: 'monthly_traces',
          limit_value: 5000,
          created_at: '2026-11-01T00:00:00.000Z',
          updated_at: '2026-11-01T00:00:00.000Z',
        },
      ],
      onWrite: async (request) => {
        const text = await request.text();
        writes.push({
          method: request.method,
          path: new URL(request.url).pathname,
          body: text ? (JSON.parse(text) as unknown) : null,
        });
        return Response.json({});
      },
    });
    renderApp(TAB);
    const card = await panel();
    await user.click(await card.findByRole('button', { name: 'Remove the limit for Acme' }));
    const confirm = card.getByRole('group', { name: 'Remove the limit for Acme' });
    expect(confirm).toHaveTextContent('Remove the limit of 100 traces for Acme?');
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(writes).toEqual([]);
    await user.click(card.getByRole('button', { name: 'Remove the limit for Acme' }));
    await user.click(card.getByRole('button', { name: 'Remove limit' }));
    await waitFor(() =>
      expect(writes).toEqual([
        { method: 'DELETE', path: `/_console/usage/usage-limits/${limitId}`, body: null },
      ]),
    );

    expect(
      card.getByText('All traces: 5,000 traces a month, for workspaces created since.'),
    ).toBeVisible();
    await user.click(card.getByRole('button', { name: 'Set the org default' }));
    const form = await card.findByRole('form', { name: 'Org default limit' });
    const value = within(form).getByRole('textbox', { name: 'Default traces a month' });
    await user.type(value, '-3');
    await user.click(within(form).getByRole('button', { name: 'Save org default' }));
    expect(value).toHaveAccessibleDescription(
      /Use a whole number of traces, without decimals or a minus sign\./,
    );
    await user.clear(value);
    await user.type(value, '20,000');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Limit type' }), [
      'Extended-retention traces',
    ]);
    await user.click(
      within(form).getByRole('checkbox', {
        name: 'Also give it now to existing workspaces without their own limit of this type',
      }),
    );
    // Enter in the field submits the form (keyboard only).
    await user.type(value, '{Enter}');
    await waitFor(() =>
      expect(writes.at(-1)).toEqual({
        method: 'PUT',
        path: '/_console/usage/usage-limits/org/default',
        body: {
          limit_type: 'monthly_longlived_traces',
          limit_value: 20000,
          apply_to: 'existing_without_limit',
        },
      }),
    );
  }, 20_000);

  it('reads the alert webhook log only when it is opened, and says when nothing was sent', async () => {
    stubUsageServer({ limits: [status(ACME, {})] });
    const fetchMock = vi.mocked(globalThis.fetch);
    renderApp(TAB);
    const card = await panel();
    const log = await card.findByText('Alert webhook deliveries');
    const asked = () =>
      fetchMock.mock.calls.filter(([input]) => String(input).includes('/org/deliveries')).length;
    expect(asked()).toBe(0);
    await userEvent.setup().click(log);
    expect(
      await card.findByText(
        'Nothing sent yet. Alerts go to USAGE_ALERT_WEBHOOK_URL when it is set on the server.',
      ),
    ).toBeVisible();
    expect(asked()).toBe(1);
  });
});
