import { describe, expect, it } from 'vitest';
import { contrastRatio } from '@/lib/contrast';
import { OTHER_KEY } from '../model/top-series';
import { SERIES_PALETTES, seriesColor, type ColorScheme } from './series-colors';

const schemes: ColorScheme[] = ['light', 'dark'];

describe('contrastRatio', () => {
  it.each([
    ['#000000', '#ffffff', 21],
    ['#ffffff', '#ffffff', 1],
    ['#767676', '#ffffff', 4.54],
  ])('%s on %s is %d:1', (a, b, ratio) => {
    expect(contrastRatio(a, b)).toBeCloseTo(ratio, 1);
  });
});

describe.each(schemes)('the %s palette', (scheme) => {
  const palette = SERIES_PALETTES[scheme];

  it.each([...palette.series, palette.other])('%s stands 3:1 or more off the surface', (color) => {
    expect(contrastRatio(color, palette.surface)).toBeGreaterThanOrEqual(3);
  });

  it('has ten distinct colours, and Other a grey of its own', () => {
    expect(new Set(palette.series).size).toBe(10);
    expect(palette.series).not.toContain(palette.other);
    expect(seriesColor({ key: OTHER_KEY }, 3, scheme)).toBe(palette.other);
    expect(seriesColor({ key: 'w1' }, 0, scheme)).toBe(palette.series[0]);
    expect(seriesColor({ key: 'w11' }, 10, scheme)).toBe(palette.series[0]);
  });
});
