import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FixedSizeObserver } from '@/testing/fixed-size-observer';
import { renderApp } from '@/testing/render-app';
import { ACME, GLOBEX, stubUsageServer } from '../testing/stub-usage-server';

const TAB = '/settings/billing-and-usage/granular-usage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const legend = () => screen.getByRole('list', { name: 'Series' });
const table = () => screen.getByRole('table', { name: 'Usage by group' });

describe('drill-down on the usage tab', () => {
  it('a legend entry focuses its group, in the URL; "Show all" clears it', async () => {
    const user = userEvent.setup();
    stubUsageServer();
    const { location } = renderApp(TAB);
    // The first test pays the chart chunk's cold import: on a loaded machine, more than a second.
    const series = await screen.findByRole('list', { name: 'Series' }, { timeout: 10_000 });
    await user.click(await within(series).findByRole('button', { name: 'Acme' }));

    expect(await screen.findByText(/Showing/)).toHaveTextContent('Showing Acme only');
    expect(within(legend()).getByRole('button', { name: 'Acme' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // The table is a chunk of its own, below the chart: it may arrive a moment later.
    const usageTable = await screen.findByRole('table', { name: 'Usage by group' });
    expect(within(usageTable).getByRole('button', { name: 'Acme' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await waitFor(() => expect(new URLSearchParams(location().search).get('focus')).toBe(ACME));

    await user.click(screen.getByRole('button', { name: 'Show all' }));
    expect(screen.queryByText(/Showing/)).toBeNull();
    await waitFor(() => expect(new URLSearchParams(location().search).has('focus')).toBe(false));
  });

  it('grouped by user, a chart that is mostly "Other" says what it holds; a focus hides that', async () => {
    const user = userEvent.setup();
    stubUsageServer();
    renderApp(`${TAB}?group_by=user`);
    const note = await screen.findByText(/^“Other” is/);
    expect(note).toHaveTextContent(
      '“Other” is 66.7% of these traces: 20 groups, none above 3.3%. Open it in the table below to list them; click a row there to chart that group alone.',
    );
    expect(within(legend()).getByRole('button', { name: 'Other (20 more)' })).toBeVisible();

    await user.click(within(table()).getByRole('button', { name: 'user0@acme.test' }));
    expect(await screen.findByText(/Showing/)).toHaveTextContent('Showing user0@acme.test only');
    expect(screen.queryByText(/^“Other” is/)).toBeNull();
  });

  it('a link with a focus opens focused, and a table row focuses by keyboard', async () => {
    const user = userEvent.setup();
    stubUsageServer();
    const { location } = renderApp(`${TAB}?focus=${ACME}`);
    expect(await screen.findByText(/Showing/)).toHaveTextContent('Showing Acme only');

    await user.click(screen.getByRole('button', { name: 'Show all' }));
    within(table()).getByRole('button', { name: 'Globex' }).focus();
    await user.keyboard(' ');
    expect(await screen.findByText(/Showing/)).toHaveTextContent('Showing Globex only');
    await waitFor(() => expect(new URLSearchParams(location().search).get('focus')).toBe(GLOBEX));
  });

  it('from a focused workspace, one click lists its projects with their workspace', async () => {
    const user = userEvent.setup();
    const requests = stubUsageServer();
    const { location } = renderApp(`${TAB}?focus=${ACME}`);
    await user.click(
      await screen.findByRole('button', { name: 'Projects in Acme' }, { timeout: 5000 }),
    );

    await waitFor(() =>
      expect(new URLSearchParams(location().search).get('group_by')).toBe('project'),
    );
    const params = new URLSearchParams(location().search);
    expect(params.get('workspaces')).toBe(ACME);
    expect(params.has('focus')).toBe(false);
    expect(await within(table()).findByRole('columnheader', { name: /Project/ })).toBeVisible();
    expect(
      within(table())
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['chatbotAcme', 'defaultAcme']);
    expect(requests.at(-1)?.searchParams.getAll('workspace_ids')).toEqual([ACME]);
  });

  it('a bar opens its day by the hour, asked for in two half days; Back returns', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('ResizeObserver', FixedSizeObserver);
    const requests = stubUsageServer();
    const { container, location } = renderApp(TAB);
    await screen.findByText('Bucket start, UTC · daily buckets');
    // The chart chunk's import: more than waitFor's default second on a loaded machine.
    await waitFor(
      () => expect(container.querySelectorAll('.recharts-bar-rectangle').length).toBeGreaterThan(0),
      { timeout: 10_000 },
    );
    const [bar] = container.querySelectorAll('.recharts-bar-rectangle');
    if (!bar) throw new Error('a bar expected');
    const before = requests.length;
    await user.click(bar);

    expect(await screen.findByText('Bucket start, UTC · hourly buckets')).toBeVisible();
    const params = new URLSearchParams(location().search);
    expect(params.get('period')).toBe('custom');
    expect(params.get('aggregation')).toBe('hourly');
    expect(params.get('from')).toBe(params.get('to'));
    const day = Date.parse(`${params.get('from')}T00:00:00Z`);
    const windows = requests
      .slice(before)
      .filter((url) => Date.parse(url.searchParams.get('start_time') ?? '') >= day)
      .map((url) => [url.searchParams.get('start_time'), url.searchParams.get('end_time')]);
    expect(windows).toContainEqual([
      new Date(day).toISOString(),
      new Date(day + 12 * 3_600_000).toISOString(),
    ]);

    window.history.back();
    expect(
      await screen.findByText('Bucket start, UTC · daily buckets', {}, { timeout: 10_000 }),
    ).toBeVisible();
    expect(new URLSearchParams(location().search).has('period')).toBe(false);
  });
});
