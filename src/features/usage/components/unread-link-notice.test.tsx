import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render-app';
import { stubUsageServer } from '../testing/stub-usage-server';

const TAB = '/settings/billing-and-usage/granular-usage';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a link with values the tab does not know', () => {
  it('says which, and what it shows instead, until the control is set', async () => {
    const user = userEvent.setup();
    stubUsageServer();
    renderApp(`${TAB}?period=6mo&group_by=project&price=free`);

    const notice = await screen.findByText(/This link has values this page does not know/);
    expect(notice).toHaveTextContent(
      'This link has values this page does not know, so their defaults are shown: period=6mo → Last 30 days; price=free → $0.50 per 1,000 traces.',
    );
    // What it could read is shown as asked.
    expect(screen.getByLabelText('Group by')).toHaveValue('project');
    expect(screen.getByLabelText('Time range')).toHaveValue('30d');

    await user.selectOptions(screen.getByLabelText('Time range'), '3m');
    await waitFor(() =>
      expect(screen.getByText(/does not know/)).toHaveTextContent(
        'This link has a value this page does not know, so its default is shown: price=free → $0.50 per 1,000 traces.',
      ),
    );
  });

  it('says nothing for a link it reads whole', async () => {
    stubUsageServer();
    renderApp(`${TAB}?period=6m&aggregation=calendar-month&group_by=project&price=4`);
    // The whole tab renders first (workspaces, then the view): slow on a loaded machine.
    expect(
      await screen.findByRole('table', { name: 'Usage by group' }, { timeout: 10_000 }),
    ).toBeVisible();
    expect(screen.queryByText(/does not know/)).toBeNull();
  });
});
