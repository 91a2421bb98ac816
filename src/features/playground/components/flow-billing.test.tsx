import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { workspaceFixture } from '@/testing/console-fixtures';
import { FlowBilling } from './flow-billing';

const WS1 = 'a0000000-0000-4000-8000-000000000001';
const WS2 = 'a0000000-0000-4000-8000-000000000002';
const STARTED = Date.parse('2026-11-23T10:00:00Z');

const record = (project: string, traces: number) => ({
  time_bucket: '2026-11-23T10:00:00.000Z',
  dimensions: { project_id: `p-${project}`, project_name: project },
  traces,
});

/** The console's usage proxy: two workspaces, the flow's project traced in the first only. */
function stubUsage(usageStatus = 200, refused?: number) {
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      requests.push(`${url.pathname}${url.search}`);
      if (url.pathname === '/_console/usage/workspaces') {
        return Response.json([workspaceFixture(WS1), workspaceFixture(WS2)]);
      }
      if (url.pathname === '/_console/usage/orgs/current/billing/granular-usage') {
        if (usageStatus !== 200) {
          return Response.json({ detail: 'Invalid API key.' }, { status: usageStatus });
        }
        const usage =
          url.searchParams.get('workspace_ids') === WS1
            ? [record('agent', 2), record('other', 5)]
            : [record('other', 1)];
        return Response.json({ stride: { days: 0, hours: 1 }, usage });
      }
      if (url.pathname === '/_console/usage/usage-limits/refusals' && refused !== undefined) {
        return Response.json({ refused, workspace_ids: [WS1], limit_types: ['monthly_traces'] });
      }
      throw new Error(`unexpected request: ${url.pathname}`);
    }),
  );
  return requests;
}

function renderBilling() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FlowBilling project="agent" startedAtMs={STARTED} totalMs={9_000} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FlowBilling', () => {
  it("says when a usage limit refused some of the flow's traces", async () => {
    const requests = stubUsage(200, 3);
    renderBilling();
    expect(await screen.findByText(/A usage limit refused/)).toHaveTextContent(
      "A usage limit refused 3 of this flow's traces (HTTP 429): the runs themselves ran, but those traces were not recorded or billed.",
    );
    const asked = new URLSearchParams(
      requests.find((request) => request.includes('refusals'))?.split('?')[1],
    );
    expect(Object.fromEntries(asked)).toEqual({
      project: 'agent',
      start_time: '2026-11-23T10:00:00.000Z',
      end_time: '2026-11-23T10:01:09.000Z',
    });
  });

  it('says nothing of limits when none refused a trace', async () => {
    stubUsage(200, 0);
    renderBilling();
    await screen.findByText(/This flow billed/);
    expect(screen.queryByText(/A usage limit refused/)).toBeNull();
  });

  it('says how many traces the flow billed and links to the usage tab filtered to them', async () => {
    const requests = stubUsage();
    renderBilling();
    const section = await screen.findByText(/This flow billed/);
    expect(section).toHaveTextContent(
      'This flow billed 2 traces in project agent (one per run the deployment executed, rolled-back runs included).',
    );
    const link = screen.getByRole('link', { name: 'See them in the usage tab' });
    const href = new URL(link.getAttribute('href') ?? '', 'http://console.test');
    expect(href.pathname).toBe('/settings/billing-and-usage/granular-usage');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      period: 'custom',
      from: '2026-11-23',
      to: '2026-11-23',
      group_by: 'project',
      workspaces: WS1,
      // The chart shows the flow's project alone.
      focus: 'p-agent',
    });
    // The window starts when the flow did: only its traces (by ingestion time) count.
    const usageRequest = requests.find((request) => request.includes('granular-usage'));
    expect(new URLSearchParams(usageRequest?.split('?')[1]).get('start_time')).toBe(
      '2026-11-23T10:00:00.000Z',
    );
  });

  it('says so when the usage data cannot be read', async () => {
    stubUsage(401);
    renderBilling();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not read the usage data: Invalid API key.',
    );
  });
});
