import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render-app';
import { stubUsageServer } from '../testing/stub-usage-server';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A window whose every `max-width` query matches, as on a phone. */
function stubPhone() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('max-width'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

describe('the usage tab on a phone', () => {
  it('folds the controls into one line saying what they are set to; the line opens them', async () => {
    const user = userEvent.setup();
    stubPhone();
    stubUsageServer();
    renderApp('/settings/billing-and-usage/granular-usage?group_by=project');
    const summary = await screen.findByRole('button', { name: /^Filters/ });
    expect(summary).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() =>
      expect(summary).toHaveTextContent(/Last 30 days · Daily · by project · all workspaces/),
    );
    expect(screen.queryByLabelText('Time range')).toBeNull();
    // The chart's panel is there at once, not behind the controls.
    expect(screen.getByRole('heading', { name: 'Traces over time' })).toBeVisible();

    await user.click(summary);
    expect(summary).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('Group by')).toHaveValue('project');
    // The chunks the tab loads beside its first screen finish before the test environment goes.
    await Promise.all([
      import('./usage-chart'),
      import('./usage-table'),
      import('./usage-limits-panel'),
    ]);
  });
});
