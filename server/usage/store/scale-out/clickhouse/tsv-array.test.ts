import { describe, expect, it } from 'vitest';
import { tsvNumbers } from './tsv-array';

describe('tsvNumbers', () => {
  it.each([
    ['[]', []],
    ['[0]', [0]],
    ['[20458,20459,7]', [20458, 20459, 7]],
    ['[9007199254740991,10]', [9007199254740991, 10]],
    ['[-3,2.5,1e3]', [-3, 2.5, 1000]],
  ])('reads %s', (cell, expected) => {
    expect(tsvNumbers(cell)).toEqual(expected);
  });
});
