import { describe, expect, it } from 'vitest';
import { deriveTraceLimits, worstCaseSpend } from './spend-limit';

const PLUS = { base: 0.0005, extended: 0.005 };

describe('deriveTraceLimits', () => {
  it.each([
    // spend, extended share, prices, every trace, extended traces
    [10, 0, PLUS, 20_000, 0],
    [10, 1, PLUS, 2_000, 2_000],
    [10, 0.5, PLUS, 11_000, 1_000],
    [100, 0.25, PLUS, 155_000, 5_000],
    [0.01, 0.5, PLUS, 11, 1],
    [0, 0.5, PLUS, 0, 0],
    [7.77, 0.3, { base: 0.0025, extended: 0.005 }, 2_641, 466],
  ])('$%s with %s extended gives %s traces, %s extended', (spend, share, prices, all, ext) => {
    expect(deriveTraceLimits(spend, share, prices)).toEqual({
      monthly_traces: all,
      monthly_longlived_traces: ext,
    });
  });

  it.each([
    [10, 0.5],
    [123.45, 0.17],
    [0.99, 0.9],
  ])('never lets the month cost more than $%s (share %s)', (spend, share) => {
    const limits = deriveTraceLimits(spend, share, PLUS);
    expect(worstCaseSpend(limits, PLUS)).toBeLessThanOrEqual(spend + 1e-9);
    // One more extended trace would go over the extended part.
    expect((limits.monthly_longlived_traces + 1) * PLUS.extended).toBeGreaterThan(spend * share);
  });
});
