import { describe, expect, it } from 'vitest';
import { effectivePricePer1k, estimateTierCost, type TierTotals } from './tier-cost';

const prices = { base: 2.5, extended: 5 };

describe('estimateTierCost', () => {
  it.each<[TierTotals, number]>([
    [{ longlived: 0, shortlived: 1000 }, 2.5],
    [{ longlived: 1000, shortlived: 0 }, 5],
    [{ longlived: 2000, shortlived: 4000 }, 20],
    [{ longlived: 0, shortlived: 0 }, 0],
  ])('%j costs $%d', (totals, dollars) => {
    expect(estimateTierCost(totals, prices)).toBeCloseTo(dollars, 10);
  });
});

describe('effectivePricePer1k', () => {
  it.each<[string, Parameters<typeof effectivePricePer1k>, number]>([
    ['long-lived only: the extended price', ['longlived', undefined, prices], 5],
    [
      'short-lived only: the base price',
      ['shortlived', { longlived: 9, shortlived: 1 }, prices],
      2.5,
    ],
    [
      'every tier, a quarter long-lived: the blend',
      [null, { longlived: 250, shortlived: 750 }, prices],
      3.125,
    ],
    ['every tier, totals unknown: the base price', [null, undefined, prices], 2.5],
    ['every tier, no traces: the base price', [null, { longlived: 0, shortlived: 0 }, prices], 2.5],
  ])('%s', (_label, args, price) => {
    expect(effectivePricePer1k(...args)).toBeCloseTo(price, 10);
  });

  it('the blended price applied to the total equals the tiered cost', () => {
    const totals = { longlived: 1234, shortlived: 5678 };
    const blended = effectivePricePer1k(null, totals, prices);
    expect(((totals.longlived + totals.shortlived) / 1000) * blended).toBeCloseTo(
      estimateTierCost(totals, prices),
      9,
    );
  });
});
