import { describe, expect, it } from 'vitest';
import { contrastRatio, deltaE2000, deltaE2000Lab, parseColour } from './colour';

describe('parseColour', () => {
  it.each([
    ['rgb(15, 20, 25)', [15, 20, 25]],
    ['rgba(1, 2, 3, 0.5)', [1, 2, 3]],
    ['#7c9dff', [124, 157, 255]],
  ])('%s', (css, rgb) => expect(parseColour(css)).toEqual(rgb));

  it('refuses what is not sRGB', () => expect(() => parseColour('oklch(0.5 0.1 20)')).toThrow());
});

describe('contrastRatio', () => {
  it.each([
    ['#000000', '#ffffff', 21],
    ['#767676', '#ffffff', 4.54],
    ['#ffffff', '#ffffff', 1],
  ])('%s on %s is %d:1', (a, b, ratio) =>
    expect(contrastRatio(parseColour(a), parseColour(b))).toBeCloseTo(ratio, 2),
  );
});

describe('deltaE2000Lab', () => {
  // Pairs 1, 7, 17 and 24 of Sharma, Wu and Dalal's CIEDE2000 test data.
  it.each([
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[50, 2.5, 0], [50, 3.1736, 0.5854], 1.0],
  ] as const)('%j to %j is %d', (a, b, expected) => {
    expect(deltaE2000Lab(a, b)).toBeCloseTo(expected, 4);
    expect(deltaE2000Lab(b, a)).toBeCloseTo(expected, 4);
  });
});

describe('deltaE2000', () => {
  it('is the whole lightness scale from black to white, and 0 for a colour and itself', () => {
    expect(deltaE2000(parseColour('#000000'), parseColour('#ffffff'))).toBeCloseTo(100, 1);
    expect(deltaE2000(parseColour('#7c9dff'), parseColour('rgb(124, 157, 255)'))).toBe(0);
  });
});
