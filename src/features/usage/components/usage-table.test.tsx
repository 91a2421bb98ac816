import type { Stride } from '@contracts/usage/usage-schema';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '@contracts/usage/usage-schema';
import type { SortState } from '../model/group-rows';
import { DEFAULT_SORT } from '../model/table-sort';
import { buildUsageMatrix } from '../model/usage-matrix';
import { UsageTable } from './usage-table';

const gridOf = (range: { startMs: number; endMs: number }, stride: Stride) =>
  createBucketGrid(range.startMs, range.endMs, stride);

const range = {
  startMs: Date.parse('2026-11-01T00:00:00Z'),
  endMs: Date.parse('2026-11-08T00:00:00Z'),
};

function userRecord(userId: string | null, email: string | null, traces: number): UsageRecord {
  return {
    time_bucket: '2026-11-02T00:00:00Z',
    traces,
    dimensions: { user_id: userId, user_email: email },
  };
}

/** A user-grouped matrix of the daily week `range`. */
const userMatrix = (records: UsageRecord[]) =>
  buildUsageMatrix(records, gridOf(range, { days: 1, hours: 0 }), 'user');

/** `count` users `u0@…` to `u{count-1}@…`, user `i` with `i + 1` traces. */
const manyUsers = (count: number) =>
  userMatrix(
    Array.from({ length: count }, (_, index) =>
      userRecord(`user-${index}`, `u${index}@example.com`, index + 1),
    ),
  );

function renderTable(
  matrix: ReturnType<typeof userMatrix>,
  comparison?: Parameters<typeof UsageTable>[0]['comparison'],
  {
    focus = null,
    onFocus = () => {},
  }: { focus?: string | null; onFocus?: (key: string | null) => void } = {},
) {
  // The tab keeps search and order in the URL; here, in state.
  function Controlled() {
    const [search, setSearch] = useState('');
    const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
    return (
      <UsageTable
        matrix={matrix}
        groupBy="user"
        comparison={comparison}
        pricePer1k={2.5}
        focus={focus}
        onFocus={onFocus}
        stale={false}
        search={search}
        sort={sort}
        onSearch={setSearch}
        onSort={setSort}
      />
    );
  }
  return render(<Controlled />);
}

function rowLabels() {
  const table = screen.getByRole('table', { name: 'Usage by group' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getByRole('rowheader').textContent);
}

describe('UsageTable', () => {
  const matrix = buildUsageMatrix(
    [
      userRecord('a1b2c3d4-0000', 'ana@example.com', 50),
      userRecord(null, null, 30),
      userRecord('e5f6a7b8-0000', null, 20),
    ],
    gridOf(range, { days: 1, hours: 0 }),
    'user',
  );
  const comparison = {
    measured: true as const,
    current: { total: matrix.total, byGroup: matrix.totals },
    previous: {
      total: 60,
      byGroup: new Map([
        ['a1b2c3d4-0000', 40],
        ['unknown:user', 20],
      ]),
    },
  };

  it('names missing dimensions instead of leaving them blank, with share and change', () => {
    renderTable(matrix, comparison);
    expect(rowLabels()).toEqual(['ana@example.com', 'Unknown user', 'User e5f6a7b8 (no email)']);
    const ana = screen.getByRole('row', { name: /ana@example.com/ });
    expect(
      within(ana)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['50', '50.0%', '$0.13', '+25.0%']);
    const newUser = screen.getByRole('row', { name: /e5f6a7b8/ });
    expect(within(newUser).getAllByRole('cell')[3]).toHaveTextContent('+20 (none before)');
    expect(screen.getByText('3 groups')).toBeInTheDocument();
  });

  it('claims no change when the previous period was not measured, and says "1 group"', () => {
    const one = buildUsageMatrix(
      [userRecord('a1b2c3d4-0000', 'ana@example.com', 50)],
      gridOf(range, { days: 1, hours: 0 }),
      'user',
    );
    renderTable(one, { measured: false });
    const ana = screen.getByRole('row', { name: /ana@example.com/ });
    expect(within(ana).getAllByRole('cell')[3]).toHaveTextContent('Not measured');
    expect(screen.queryByText(/New/)).not.toBeInTheDocument();
    expect(screen.getByText('1 group')).toBeInTheDocument();
  });

  it('sorts by a column when its header is pressed, and says so to assistive tech', async () => {
    const user = userEvent.setup();
    renderTable(matrix, comparison);
    // Names sort A→Z first, then Z→A.
    await user.click(screen.getByRole('button', { name: 'User' }));
    expect(screen.getByRole('columnheader', { name: /User/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(rowLabels()).toEqual(['ana@example.com', 'Unknown user', 'User e5f6a7b8 (no email)']);
    await user.click(screen.getByRole('button', { name: 'User' }));
    expect(rowLabels()).toEqual(['User e5f6a7b8 (no email)', 'Unknown user', 'ana@example.com']);
  });

  it('folds all but the chart\'s ten groups into "Other", which opens into pages of 25', async () => {
    const user = userEvent.setup();
    const many = manyUsers(5000);
    renderTable(many);
    expect(rowLabels()).toHaveLength(11);
    expect(rowLabels()[0]).toBe('u4999@example.com');
    const other = screen.getByRole('button', { name: 'Other (4,990 more)' });
    expect(other).toHaveAttribute('aria-expanded', 'false');
    // The "Other" row sums exactly the groups it folds: 1 + 2 + … + 4990 traces.
    expect(
      within(screen.getByRole('row', { name: /Other/ })).getAllByRole('cell')[0],
    ).toHaveTextContent('12,452,545');
    await user.click(other);
    expect(other).toHaveAttribute('aria-expanded', 'true');
    expect(rowLabels()).toHaveLength(25);
    expect(rowLabels()[11]).toBe('u4989@example.com');
    expect(screen.getByText('Page 1 of 201')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(rowLabels()[0]).toBe('u4975@example.com');
  });

  it('a row is a button that focuses its group, and pressed again shows all', async () => {
    const user = userEvent.setup();
    const calls: (string | null)[] = [];
    const view = renderTable(matrix, comparison, { onFocus: (key) => calls.push(key) });
    const ana = screen.getByRole('button', { name: 'ana@example.com' });
    expect(ana).toHaveAttribute('aria-pressed', 'false');
    ana.focus();
    await user.keyboard('{Enter}');
    expect(calls).toEqual(['a1b2c3d4-0000']);
    view.unmount();
    renderTable(matrix, comparison, { focus: 'a1b2c3d4-0000', onFocus: (key) => calls.push(key) });
    const pressed = screen.getByRole('button', { name: 'ana@example.com' });
    expect(pressed).toHaveAttribute('aria-pressed', 'true');
    await user.click(pressed);
    expect(calls).toEqual(['a1b2c3d4-0000', null]);
  });

  it('opens "Other" when the chart focuses it', () => {
    renderTable(manyUsers(12), undefined, { focus: '__other__' });
    expect(screen.getByRole('button', { name: /Other \(2 more\)/ })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(rowLabels().slice(-2)).toEqual(['u1@example.com', 'u0@example.com']);
  });

  it('shows the workspace under each project when the response names it', () => {
    const projects = buildUsageMatrix(
      [
        {
          time_bucket: '2026-11-02T00:00:00Z',
          traces: 5,
          dimensions: {
            project_id: 'p1',
            project_name: 'default',
            workspace_id: 'w1',
            workspace_name: 'Acme Prod',
          },
        },
        {
          time_bucket: '2026-11-02T00:00:00Z',
          traces: 3,
          dimensions: { project_id: 'p2', project_name: 'chatbot' },
        },
      ],
      gridOf(range, { days: 1, hours: 0 }),
      'project',
    );
    render(
      <UsageTable
        matrix={projects}
        groupBy="project"
        comparison={undefined}
        pricePer1k={2.5}
        focus={null}
        onFocus={() => {}}
        stale={false}
        search=""
        sort={DEFAULT_SORT}
        onSearch={() => {}}
        onSort={() => {}}
      />,
    );
    expect(
      within(screen.getByRole('rowheader', { name: /default/ })).getByText('Acme Prod'),
    ).toBeVisible();
    expect(screen.getByRole('rowheader', { name: 'chatbot' })).toHaveTextContent(/^chatbot$/);
  });

  it('searches groups by name or id, and says how many of all match', async () => {
    const user = userEvent.setup();
    const many = manyUsers(60);
    renderTable(many);
    await user.click(screen.getByRole('button', { name: /Other/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search groups' }), 'u5');
    // u5 and u50..u59: back on the first page, whatever page was open.
    expect(rowLabels()).toHaveLength(11);
    expect(rowLabels()[0]).toBe('u59@example.com');
    expect(screen.getByText('11 of 60 groups')).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search groups' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search groups' }), 'user-7');
    expect(rowLabels()).toEqual(['u7@example.com']);
  });

  it('says in a row when no group matches the search, with a way back', async () => {
    const user = userEvent.setup();
    renderTable(manyUsers(3));
    await user.type(screen.getByRole('searchbox', { name: 'Search groups' }), 'zzz');
    expect(screen.getByRole('cell', { name: /No group matches “zzz”/ })).toBeVisible();
    expect(screen.getByText('0 of 3 groups')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(rowLabels()).toHaveLength(3);
  });

  it('gives "Other" the change of the groups it folds', () => {
    // Twelve users: Other folds u0 (1 trace) and u1 (2), which had 2 and 4 before: -50%.
    const twelve = manyUsers(12);
    const previous = new Map([
      ['user-0', 2],
      ['user-1', 4],
    ]);
    renderTable(twelve, {
      measured: true,
      current: { total: twelve.total, byGroup: twelve.totals },
      previous: { total: 6, byGroup: previous },
    });
    const other = screen.getByRole('row', { name: /Other \(2 more\)/ });
    expect(within(other).getAllByRole('cell')[3]).toHaveTextContent('−50.0%');
  });
});
