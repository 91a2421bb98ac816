import { describe, expect, it } from 'vitest';
import { comparePeriods } from './compare-periods';

describe('comparePeriods', () => {
  it.each([
    [150, 100, true, { kind: 'change', delta: 50, ratio: 0.5 }],
    [50, 100, true, { kind: 'change', delta: -50, ratio: -0.5 }],
    [10, 0, true, { kind: 'from-zero', delta: 10 }],
    [0, 0, true, { kind: 'none' }],
    [0, 20, true, { kind: 'change', delta: -20, ratio: -1 }],
    // Nothing was counted before the floor: no change is claimed, whatever the counts.
    [10, 0, false, { kind: 'unmeasured' }],
    [0, 0, false, { kind: 'unmeasured' }],
  ])('%i against %i (measured: %s)', (current, previous, measured, expected) => {
    expect(comparePeriods(current, previous, measured)).toEqual(expected);
  });
});
