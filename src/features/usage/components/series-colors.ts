import { OTHER_KEY, type ChartSeries } from '../model/top-series';

const SERIES_COLORS = [
  '#1f4ed8',
  '#0e9384',
  '#e4780c',
  '#9e3fd1',
  '#d92d6b',
  '#2e90fa',
  '#66a30f',
  '#b54708',
  '#475467',
  '#c11574',
];
const OTHER_COLOR = '#98a2b3';

/** Chart and legend colours: by rank, so a group keeps its colour while the ranks hold. */
export function seriesColor(series: ChartSeries, index: number): string {
  return series.key === OTHER_KEY
    ? OTHER_COLOR
    : (SERIES_COLORS[index % SERIES_COLORS.length] ?? OTHER_COLOR);
}

/** A chart series with the colour it keeps wherever it is drawn (stack, focus, legend, tooltip). */
export interface ColoredSeries extends ChartSeries {
  color: string;
}
