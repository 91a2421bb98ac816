import { describe, expect, it } from 'vitest';
import { newlyCrossed, thresholdCount } from './limit-alerts';

describe('thresholdCount', () => {
  it.each([
    [1000, 50, 500],
    [1000, 80, 800],
    [1000, 100, 1000],
    [3, 50, 2],
    [3, 80, 3],
    [1, 50, 1],
    [0, 50, 0],
  ])('%i traces at %i %% is %i', (limit, threshold, count) => {
    expect(thresholdCount(limit, threshold)).toBe(count);
  });
});

describe('newlyCrossed', () => {
  const defaults = [50, 80, 100];
  it.each([
    [499, 1000, [], []],
    [500, 1000, [], [50]],
    [800, 1000, [50], [80]],
    [1000, 1000, [], [50, 80, 100]],
    [1000, 1000, [50, 80, 100], []],
    [5000, 1000, [50], [80, 100]],
    // The limit was raised: a threshold once alerted is not alerted again this month.
    [900, 2000, [50, 80], []],
  ])('used %i of %i, already sent %j: %j', (used, limit, sent, expected) => {
    expect(newlyCrossed(used, limit, defaults, new Set(sent))).toEqual(expected);
  });

  it('orders custom thresholds', () => {
    expect(newlyCrossed(95, 100, [90, 25], new Set())).toEqual([25, 90]);
  });
});
