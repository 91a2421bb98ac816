import type { SortKey, SortState } from './group-rows';

/** The table's order when the URL says nothing: most traces first. */
export const DEFAULT_SORT: SortState = { key: 'traces', direction: 'desc' };

const KEYS: readonly SortKey[] = ['label', 'traces', 'share', 'change'];

/** `?sort=label.asc` as a sort; anything else is the default order. */
export function parseSortParam(text: string | null): SortState {
  const [key, direction] = (text ?? '').split('.');
  const sortKey = KEYS.find((candidate) => candidate === key);
  if (!sortKey || (direction !== 'asc' && direction !== 'desc')) return DEFAULT_SORT;
  return { key: sortKey, direction };
}

/** The sort as `?sort=`, or null for the default (kept out of the URL). */
export function formatSortParam(sort: SortState): string | null {
  return sort.key === DEFAULT_SORT.key && sort.direction === DEFAULT_SORT.direction
    ? null
    : `${sort.key}.${sort.direction}`;
}

/**
 * The order after a header is pressed: the same column turns round; a new column starts where
 * a reader expects, names A→Z and figures largest first.
 */
export function nextSort(current: SortState, key: SortKey): SortState {
  if (current.key === key) {
    return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  }
  return { key, direction: key === 'label' ? 'asc' : 'desc' };
}
