import { describe, expect, it } from 'vitest';
import { estimateCost, formatPriceField, formatUsd, parsePrice } from './cost-estimate';

describe('estimateCost', () => {
  it.each([
    [1000, 2.5, '$2.50'],
    [2_066_367, 2.5, '$5,165.92'],
    [0, 2.5, '$0.00'],
    [1, 2.5, '< $0.01'],
    [123_456, 0.5, '$61.73'],
    [5000, 0, '$0.00'],
  ])('%i traces at $%d per 1,000 is %s', (traces, price, expected) => {
    expect(formatUsd(estimateCost(traces, price))).toBe(expected);
  });
});

describe('parsePrice', () => {
  it.each([
    ['2.5', 2.5],
    ['0', 0],
    [' 5 ', 5],
    ['', undefined],
    ['-1', undefined],
    ['abc', undefined],
    ['Infinity', undefined],
  ])('%j -> %s', (text, expected) => {
    expect(parsePrice(text)).toBe(expected);
  });
});

describe('formatPriceField', () => {
  it.each([
    [2.5, '2.50'],
    [5, '5.00'],
    [0, '0.00'],
    [0.125, '0.125'],
    [12.34, '12.34'],
  ])('%d shows as %s', (price, expected) => {
    expect(formatPriceField(price)).toBe(expected);
  });
});
