import { OTHER_KEY, type ChartSeries } from '../model/top-series';

export type ColorScheme = 'light' | 'dark';

/**
 * Series colours per scheme, by rank. Each is at least 3:1 against its chart surface (WCAG's
 * non-text contrast; series-colors.test.ts checks it), and neighbours differ in hue. "Other" is
 * a grey in both, so it never reads as one more group.
 */
export const SERIES_PALETTES: Record<
  ColorScheme,
  { series: string[]; other: string; surface: string }
> = {
  light: {
    series: [
      '#1f4ed8',
      '#0e9384',
      '#d9730b',
      '#9e3fd1',
      '#d92d6b',
      '#2e90fa',
      '#66a30f',
      '#b54708',
      '#475467',
      '#15803d',
    ],
    other: '#848d9c',
    surface: '#ffffff',
  },
  dark: {
    series: [
      '#7c9dff',
      '#2dd4bf',
      '#fb923c',
      '#c084fc',
      '#f472b6',
      '#38bdf8',
      '#a3e635',
      '#facc15',
      '#94a3b8',
      '#fda4af',
    ],
    other: '#737c89',
    surface: '#161b22',
  },
};

/** Chart and legend colours: by rank, so a group keeps its colour while the ranks hold. */
export function seriesColor(
  series: Pick<ChartSeries, 'key'>,
  index: number,
  scheme: ColorScheme = 'light',
): string {
  const palette = SERIES_PALETTES[scheme];
  return series.key === OTHER_KEY
    ? palette.other
    : (palette.series[index % palette.series.length] ?? palette.other);
}

/** A chart series with the colour it keeps wherever it is drawn (stack, focus, legend, tooltip). */
export interface ColoredSeries extends ChartSeries {
  color: string;
}
