import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScopedLimit } from '@contracts/usage/usage-limits';
import { renderApp } from '@/testing/render-app';
import { ACME, ACME_CHATBOT, acmeUserId, stubUsageServer } from '../testing/stub-usage-server';

const TAB = '/settings/billing-and-usage/granular-usage';
const UNKNOWN_PROJECT = 'b0000000-0000-4000-8000-0000000000ff';

afterEach(() => {
  vi.unstubAllGlobals();
});

function traceLimit(scope: 'project' | 'user', targetId: string, traces: number): ScopedLimit {
  return {
    id: crypto.randomUUID(),
    tenant_id: ACME,
    scope,
    target_id: targetId,
    limit_type: 'monthly_traces',
    limit_value: traces,
    extended_share: null,
    derived: null,
    alert_thresholds: [50, 80, 100],
    created_at: '2026-11-02T10:00:00.000Z',
    updated_at: '2026-11-02T10:00:00.000Z',
  };
}

describe('the project, user and spend limits table', () => {
  it("names each limit's project or user as the usage data does, its id below", async () => {
    stubUsageServer({
      scopedLimits: [
        traceLimit('project', ACME_CHATBOT, 500),
        traceLimit('user', acmeUserId(3), 40),
        traceLimit('project', UNKNOWN_PROJECT, 7),
      ],
    });
    renderApp(TAB);
    const card = within(
      await screen.findByRole(
        'region',
        { name: 'Project, user and spend limits' },
        { timeout: 10_000 },
      ),
    );
    const table = within(await card.findByRole('table', {}, { timeout: 10_000 }));
    const holds = () =>
      table
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[1]?.textContent);
    // The names arrive with the usage data; until then (and for a target without traces in
    // the picker's window) the id is all there is to show.
    await vi.waitFor(() =>
      expect(holds()).toEqual([
        `Project chatbot${ACME_CHATBOT}`,
        `User user3@acme.test${acmeUserId(3)}`,
        `Project ${UNKNOWN_PROJECT}`,
      ]),
    );
    expect(table.getByText('chatbot', { exact: false })).toBeVisible();
    expect(table.getByText(ACME_CHATBOT)).toHaveClass('muted');
  });
});
