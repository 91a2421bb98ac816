import { parseAsString, useQueryStates } from '@/lib/url-state';
import type { SortState } from '../model/group-rows';
import { formatSortParam, parseSortParam } from '../model/table-sort';

/**
 * The table's search and order, in the URL beside the view (`?q=acme&sort=label.asc`), so a
 * shared link shows the same rows. They replace the history entry: a typed word is no step
 * for Back to undo letter by letter.
 */
const tableParsers = { q: parseAsString.withDefault(''), sort: parseAsString };

export function useTableParams() {
  const [state, setState] = useQueryStates(tableParsers, { history: 'replace' });
  return {
    search: state.q,
    sort: parseSortParam(state.sort),
    setSearch: (search: string) => void setState({ q: search === '' ? null : search }),
    setSort: (sort: SortState) => void setState({ sort: formatSortParam(sort) }),
  };
}
