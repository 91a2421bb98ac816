import { describe, expect, it } from 'vitest';
import type { SortState } from './group-rows';
import { DEFAULT_SORT, formatSortParam, nextSort, parseSortParam } from './table-sort';

describe('nextSort', () => {
  it.each<[string, SortState, SortState['key'], SortState]>([
    ['names start A→Z', DEFAULT_SORT, 'label', { key: 'label', direction: 'asc' }],
    ['then Z→A', { key: 'label', direction: 'asc' }, 'label', { key: 'label', direction: 'desc' }],
    [
      'figures start largest first',
      { key: 'label', direction: 'asc' },
      'share',
      { key: 'share', direction: 'desc' },
    ],
    ['the default column turns round', DEFAULT_SORT, 'traces', { key: 'traces', direction: 'asc' }],
    ['change starts largest first', DEFAULT_SORT, 'change', { key: 'change', direction: 'desc' }],
  ])('%s', (_name, current, key, expected) => {
    expect(nextSort(current, key)).toEqual(expected);
  });
});

describe('the sort in the URL', () => {
  it.each<[string | null, SortState, string | null]>([
    [null, DEFAULT_SORT, null],
    ['label.asc', { key: 'label', direction: 'asc' }, 'label.asc'],
    ['change.desc', { key: 'change', direction: 'desc' }, 'change.desc'],
    ['traces.desc', DEFAULT_SORT, null],
    ['team.asc', DEFAULT_SORT, null],
    ['label.up', DEFAULT_SORT, null],
    ['', DEFAULT_SORT, null],
  ])('?sort=%s reads %j and writes back %s', (text, sort, written) => {
    expect(parseSortParam(text)).toEqual(sort);
    expect(formatSortParam(parseSortParam(text))).toBe(written);
  });
});
