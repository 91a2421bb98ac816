import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LimitStatus, ScopedLimit } from '@contracts/usage/usage-limits';
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

/** The month's status of a project or user limit. */
function monthOf(limit: ScopedLimit, fields: Partial<LimitStatus>): LimitStatus {
  return {
    workspace_id: limit.tenant_id,
    scope: limit.scope,
    target_id: limit.target_id,
    limit_type: limit.limit_type,
    limit_value: limit.limit_value,
    limit_id: limit.id,
    source: 'own',
    alert_thresholds: limit.alert_thresholds,
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

describe('the project, user and spend limits table', () => {
  it("names each limit's project or user as the usage data does, its id below", async () => {
    const chatbot = traceLimit('project', ACME_CHATBOT, 500);
    const user = traceLimit('user', acmeUserId(3), 40);
    stubUsageServer({
      scopedLimits: [chatbot, user, traceLimit('project', UNKNOWN_PROJECT, 7)],
      limits: [
        monthOf(chatbot, { used: 120 }),
        monthOf(user, { used: 40, refused: 3, reached_at: '2026-11-20T14:05:00.000Z' }),
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
    expect(table.getByText(ACME_CHATBOT)).toHaveClass('muted');
    // The month so far, with the runs each limit refused.
    expect(
      table
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[3]?.textContent),
    ).toEqual(['120 traces', '40 traces (limit reached) · 3 refused', '–']);
  });
});
