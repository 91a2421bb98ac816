import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invoice } from '@contracts/usage/billing-schema';
import { DEFAULT_PLAN, invoiceLines, invoiceTotal } from '@contracts/usage/pricing';
import { EMBEDDED_CONSOLE_CONFIG } from '@/testing/console-fixtures';
import { renderApp } from '@/testing/render-app';

const INVOICES = '/settings/billing-and-usage/invoices';

afterEach(() => {
  vi.unstubAllGlobals();
});

const usage = {
  base_traces: 22_345,
  extended_traces: 0,
  extended_upgrades: 1_111,
  deployment_runs: 0,
  deployment_nodes: 0,
  deployment_uptime_seconds: 0,
};

function invoice(month: string, quantities = usage): Invoice {
  const lines = invoiceLines(quantities, DEFAULT_PLAN);
  return {
    month,
    status: 'final',
    projected: null,
    lines,
    total: invoiceTotal(lines),
    by_workspace: [],
    by_project: [],
    plan: DEFAULT_PLAN,
  };
}

/** The console server for the Invoices view: `answer` decides the invoice's response. */
function stubServer(answer: (month: string) => Response, admin = true) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      if (url.pathname === '/_console/config') return Response.json(EMBEDDED_CONSOLE_CONFIG);
      if (url.pathname === '/_console/usage/orgs/current/billing/plan') {
        return Response.json(DEFAULT_PLAN);
      }
      if (url.pathname === '/_console/usage/usage-limits/org/status') {
        return Response.json([
          {
            workspace_id: 'a0000000-0000-4000-8000-000000000001',
            scope: 'workspace',
            target_id: 'a0000000-0000-4000-8000-000000000001',
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
            can_edit: admin,
          },
        ]);
      }
      if (url.pathname === '/_console/usage/orgs/current/billing/invoices') {
        return answer(url.searchParams.get('month') ?? '');
      }
      throw new Error(`unexpected request: ${url.pathname}`);
    }),
  );
}

describe('the Invoices view', () => {
  it("shows a month's lines, their total and the plan editor to an admin", async () => {
    stubServer((month) => Response.json(invoice(month)));
    renderApp(`${INVOICES}?month=2026-10`);
    const table = await screen.findByRole(
      'table',
      { name: 'October 2026: final' },
      { timeout: 10_000 },
    );
    const base = within(table).getByRole('row', { name: /Base Charge/ });
    // 12,345 billable at $0.0005 = $6.1725: $6.17. Seats $39 + upgrades $5.00.
    expect(base).toHaveTextContent('22,34510,00012,345$0.0005$6.17');
    expect(within(table).getByRole('row', { name: /^Total/ })).toHaveTextContent('$50.17');
    // On a phone the table scrolls inside its own box, not the whole page.
    expect(screen.getByRole('region', { name: 'October 2026: final' })).toHaveClass('table-scroll');
    expect(screen.queryByText(/No usage in this month/)).toBeNull();
    expect(await screen.findByRole('form', { name: 'Plan and prices' })).toBeInTheDocument();
  });

  it('shows the extended-retention count as not billed separately, and each split with its uptime', async () => {
    const quantities = { ...usage, extended_traces: 4_321, deployment_uptime_seconds: 5_400 };
    stubServer((month) =>
      Response.json({
        ...invoice(month, quantities),
        by_workspace: [
          {
            workspace_id: 'a0000000-0000-4000-8000-000000000001',
            workspace_name: 'Acme',
            project_id: null,
            project_name: null,
            lines: invoiceLines(quantities, DEFAULT_PLAN).filter((line) => line.metric !== 'seats'),
            total: 11.5,
          },
        ],
      }),
    );
    renderApp(`${INVOICES}?month=2026-10`);
    const table = await screen.findByRole(
      'table',
      { name: 'October 2026: final' },
      { timeout: 10_000 },
    );
    const extended = within(table).getByRole('row', { name: /extended retention/ });
    expect(extended).toHaveTextContent('4,321———Not billed separately');
    expect(extended).not.toHaveTextContent('$0.00');
    const split = screen.getByRole('table', { name: /^By workspace/ });
    expect(within(split).getByRole('columnheader', { name: 'Uptime (hours)' })).toBeInTheDocument();
    expect(within(split).getByRole('row', { name: /^Acme/ })).toHaveTextContent('1.5$11.50');
    expect(screen.getByText(/share of each usage line/)).toHaveTextContent('deployment uptime');
  });

  it('lists the projects that cost the most first', async () => {
    const split = (project: string, total: number) => ({
      workspace_id: 'a0000000-0000-4000-8000-000000000001',
      workspace_name: 'Acme',
      project_id: `p-${project}`,
      project_name: project,
      lines: [],
      total,
    });
    stubServer((month) =>
      Response.json({
        ...invoice(month),
        by_project: [split('agent', 0.01), split('chat', 237.87), split('eval', 6.88)],
      }),
    );
    renderApp(`${INVOICES}?month=2026-10`);
    const table = await screen.findByRole('table', { name: 'By project' }, { timeout: 10_000 });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Acmechat.*\$237\.87$/),
      expect.stringMatching(/^Acmeeval.*\$6\.88$/),
      expect.stringMatching(/^Acmeagent.*\$0\.01$/),
    ]);
  });

  it('says when a month has no usage, and offers no plan editor to a reader', async () => {
    stubServer(
      (month) =>
        Response.json(
          invoice(month, {
            base_traces: 0,
            extended_traces: 0,
            extended_upgrades: 0,
            deployment_runs: 0,
            deployment_nodes: 0,
            deployment_uptime_seconds: 0,
          }),
        ),
      false,
    );
    renderApp(`${INVOICES}?month=2026-10`);
    expect(
      await screen.findByText(/No usage in this month/, undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Plan and prices' })).toBeNull();
  });

  it('says so when the invoice cannot be loaded', async () => {
    stubServer(() => Response.json({ detail: 'boom' }, { status: 500 }));
    renderApp(`${INVOICES}?month=2026-10`);
    expect(await screen.findByRole('alert', undefined, { timeout: 10_000 })).toHaveTextContent(
      /The invoice could not be loaded/,
    );
  });
});
