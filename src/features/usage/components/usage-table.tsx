import { useId, useState } from 'react';
import type { GroupBy } from '@contracts/usage/usage-schema';
import { formatCount, formatPercent } from '@/lib/format';
import { estimateCost, formatUsd } from '../model/cost-estimate';
import type { GroupComparison } from '../model/group-comparison';
import { periodChangeOf, focusScope } from '../model/focus-scope';
import { sortGroupRows, type SortKey, type SortState } from '../model/group-rows';
import { nextSort } from '../model/table-sort';
import { tableLines } from '../model/table-rows';
import { OTHER_KEY } from '../model/top-series';
import type { UsageMatrix } from '../model/usage-matrix';
import { GROUP_BY_LABELS } from './usage-controls';
import { ChangeCell, GroupLine } from './usage-table-row';

const PAGE_SIZE = 25;

interface UsageTableProps {
  matrix: UsageMatrix;
  groupBy: GroupBy;
  comparison: GroupComparison | undefined;
  /** Dollars per 1,000 traces for the estimate column. */
  pricePer1k: number;
  /** The group the chart shows alone; its row's button is pressed. */
  focus: string | null;
  onFocus: (key: string | null) => void;
  stale: boolean;
  /** The search and order (kept in the URL by the tab). */
  search: string;
  sort: SortState;
  onSearch: (search: string) => void;
  onSort: (sort: SortState) => void;
}

export function UsageTable({
  matrix,
  groupBy,
  comparison,
  pricePer1k,
  focus,
  onFocus,
  stale,
  search,
  sort,
  onSearch,
  onSort,
}: UsageTableProps) {
  const [page, setPage] = useState(0);
  const [otherOpen, setOtherOpen] = useState(false);
  const searchId = useId();
  const allRows = sortGroupRows(matrix, comparison, sort);
  const needle = search.trim().toLowerCase();
  // Matches the label and the group's id, so a pasted workspace or key id finds its row too.
  const rows = needle
    ? allRows.filter(
        (row) => row.label.toLowerCase().includes(needle) || row.key.toLowerCase().includes(needle),
      )
    : allRows;
  // Focusing "Other" in the legend opens it here too: the chart then shows what these rows sum.
  const lines = tableLines(matrix, rows, {
    expanded: otherOpen || focus === OTHER_KEY,
    searching: needle !== '',
  });
  const pages = Math.max(1, Math.ceil(lines.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const visible = lines.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE);
  // "Other" changes as the sum of the groups it folds.
  const otherScope = focusScope(matrix, OTHER_KEY, comparison);
  const otherChange = otherScope ? periodChangeOf(otherScope) : undefined;
  const workspaceOf = new Map(
    matrix.series.map((series) => [series.key, series.dimensions.workspace_name ?? null]),
  );

  const header = (key: SortKey, label: string, numeric = false) => {
    const active = sort.key === key;
    return (
      <th
        scope="col"
        className={numeric ? 'num' : undefined}
        aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      >
        <button
          type="button"
          className="sort-button"
          onClick={() => {
            onSort(nextSort(sort, key));
            setPage(0);
          }}
        >
          {label}
          <span aria-hidden="true">{active ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
        </button>
      </th>
    );
  };

  return (
    <section className={stale ? 'panel stale' : 'panel'} aria-labelledby="usage-table-heading">
      <div className="panel-heading">
        <h3 id="usage-table-heading">Usage by group</h3>
        <span className="muted small">
          {needle ? `${formatCount(rows.length)} of ` : ''}
          {formatCount(allRows.length)} {allRows.length === 1 ? 'group' : 'groups'}
        </span>
      </div>
      <div className="field table-search">
        <label htmlFor={searchId} className="visually-hidden">
          Search groups
        </label>
        <input
          id={searchId}
          type="search"
          placeholder="Search groups"
          value={search}
          onChange={(event) => {
            onSearch(event.target.value);
            setPage(0);
          }}
        />
      </div>
      <p className="scroll-hint muted small" aria-hidden="true">
        Swipe the table sideways for cost and change →
      </p>
      <div className="table-scroll">
        <table className="data-table" aria-labelledby="usage-table-heading">
          <thead>
            <tr>
              {header('label', GROUP_BY_LABELS[groupBy])}
              {header('traces', 'Traces', true)}
              {header('share', 'Share', true)}
              <th scope="col" className="num">
                Est. cost
              </th>
              {header('change', 'Change vs previous', true)}
            </tr>
          </thead>
          <tbody>
            {needle && rows.length === 0 ? (
              <tr>
                <td colSpan={5} className="empty-row">
                  No group matches “{search.trim()}”.{' '}
                  <button type="button" className="link-button" onClick={() => onSearch('')}>
                    Clear the search
                  </button>
                </td>
              </tr>
            ) : null}
            {visible.map((line) =>
              line.kind === 'other' ? (
                <tr key={line.key} className="other-row">
                  <th scope="row">
                    <button
                      type="button"
                      className="row-button"
                      aria-expanded={otherOpen || focus === OTHER_KEY}
                      onClick={() => setOtherOpen(!otherOpen)}
                    >
                      <span aria-hidden="true">
                        {otherOpen || focus === OTHER_KEY ? '▾ ' : '▸ '}
                      </span>
                      {line.label}
                    </button>
                  </th>
                  <td className="num">{formatCount(line.traces)}</td>
                  <td className="num">{formatPercent(line.share)}</td>
                  <td className="num">{formatUsd(estimateCost(line.traces, pricePer1k))}</td>
                  <td className="num">
                    <ChangeCell change={otherChange} />
                  </td>
                </tr>
              ) : (
                <GroupLine
                  key={line.row.key}
                  line={line}
                  workspace={groupBy === 'project' ? (workspaceOf.get(line.row.key) ?? null) : null}
                  pricePer1k={pricePer1k}
                  focused={focus === line.row.key}
                  onFocus={onFocus}
                />
              ),
            )}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav className="pagination" aria-label="Usage by group pages">
          <button
            type="button"
            className="button button-secondary"
            disabled={current === 0}
            onClick={() => setPage(current - 1)}
          >
            Previous
          </button>
          <span>
            Page {current + 1} of {pages}
          </span>
          <button
            type="button"
            className="button button-secondary"
            disabled={current >= pages - 1}
            onClick={() => setPage(current + 1)}
          >
            Next
          </button>
        </nav>
      ) : null}
    </section>
  );
}
