import { lazy, Suspense, useMemo } from 'react';
import { useMediaQuery } from '@/components/ui/use-media-query';
import { formatCount, formatPercent } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import {
  firstFutureBucket,
  partialBucketStart,
  partialFirstMonthStart,
} from '../model/partial-bucket';
import {
  focusedSeries,
  summariseOther,
  topSeriesWithOther,
  type ChartSeries,
  type OtherSummary,
} from '../model/top-series';
import type { LimitLine } from '../model/chart-limit-line';
import type { UsageMatrix } from '../model/usage-matrix';
import { useDataFloor } from './data-floor-notice';
import { seriesColor } from './series-colors';

// Recharts is most of the tab's JavaScript: its own chunk. The tab starts loading it when it
// mounts (preloadUsageChart), in parallel with the first usage request, so controls and totals
// paint first; other routes (the playground) never load it.
export const preloadUsageChart = () => import('./usage-chart');
const UsageChart = lazy(() =>
  preloadUsageChart().then((module) => ({ default: module.UsageChart })),
);

interface ChartBodyProps {
  matrix: UsageMatrix;
  nowMs: number;
  /** Dollars per 1,000 traces for the tooltip; null for a chart that does not count traces. */
  pricePer1k: number | null;
  /** The group shown alone (a series key), or null for all. */
  focus: string | null;
  onFocus: (key: string | null) => void;
  /** A bar was clicked: bucket `index` of the matrix's grid (absent when nothing is finer). */
  onZoom: ((index: number) => void) | undefined;
  stale: boolean;
  /** A monthly usage limit to draw (calendar-month bars only). */
  limitLine?: LimitLine | null;
  /** Charts under one legend pick their groups and colours by this matrix's ranking. */
  rankBy?: UsageMatrix;
  /** Legend, hints and partial-bucket notes: off for all but one of charts that share them. */
  decorations?: boolean;
}

/** The chart and its legend; a legend entry focuses its group, pressed again it shows all. */
export function ChartBody({
  matrix,
  nowMs,
  pricePer1k,
  focus,
  onFocus,
  onZoom,
  stale,
  limitLine = null,
  rankBy = matrix,
  decorations = true,
}: ChartBodyProps) {
  const floorMs = useDataFloor();
  // The dark theme follows the system; its palette keeps every series 3:1 off the dark surface.
  const scheme = useMediaQuery('(prefers-color-scheme: dark)') ? 'dark' : 'light';
  // Colours by rank among all groups, so a focused group keeps the colour it has in the stack.
  const series = useMemo(
    () =>
      topSeriesWithOther(matrix, 10, rankBy).map((item, index) => ({
        ...item,
        color: seriesColor(item, index, scheme),
      })),
    [matrix, rankBy, scheme],
  );
  const shown = useMemo(() => {
    if (focus === null) return series;
    const focused = focusedSeries(matrix, series, focus);
    return focused ? [{ color: seriesColor(focused, series.length, scheme), ...focused }] : [];
  }, [matrix, series, focus, scheme]);
  // Ranks every group: once per matrix, not on every render.
  const otherSummary = useMemo(() => summariseOther(matrix, series), [matrix, series]);
  const other = focus === null ? otherSummary : null;
  const partialBucketMs = partialBucketStart(matrix, nowMs);
  const partialFirstMs = partialFirstMonthStart(matrix);
  const futureFrom = firstFutureBucket(matrix, nowMs);
  const partialBuckets = useMemo(
    () => [partialFirstMs, partialBucketMs].filter((ms): ms is number => ms !== null),
    [partialFirstMs, partialBucketMs],
  );

  return (
    <div className={stale ? 'chart-body stale' : 'chart-body'}>
      <Suspense fallback={<div className="chart-skeleton">Loading chart…</div>}>
        <UsageChart
          matrix={matrix}
          series={shown}
          floorMs={floorMs ?? Number.NEGATIVE_INFINITY}
          partialBuckets={partialBuckets}
          futureFrom={futureFrom}
          pricePer1k={pricePer1k}
          onBucketClick={onZoom}
          limitLine={limitLine}
        />
      </Suspense>
      {decorations ? (
        <ChartNotes
          matrix={matrix}
          series={series}
          focus={focus}
          onFocus={onFocus}
          other={other}
          zoomable={onZoom !== undefined}
          nowMs={nowMs}
          partialFirstMs={partialFirstMs}
          partialBucketMs={partialBucketMs}
          futureFrom={futureFrom}
        />
      ) : null}
    </div>
  );
}

/** Under the chart: the legend (each entry focuses its group), then what the marks mean. */
function ChartNotes({
  matrix,
  series,
  focus,
  onFocus,
  other,
  zoomable,
  nowMs,
  partialFirstMs,
  partialBucketMs,
  futureFrom,
}: {
  matrix: UsageMatrix;
  series: readonly (ChartSeries & { color: string })[];
  focus: string | null;
  onFocus: (key: string | null) => void;
  other: OtherSummary | null;
  zoomable: boolean;
  nowMs: number;
  partialFirstMs: number | null;
  partialBucketMs: number | null;
  futureFrom: number | null;
}) {
  return (
    <>
      <ul className="legend" aria-label="Series">
        {series.map((item) => (
          <li key={item.key}>
            {/* A long name is cut with an ellipsis; hover or focus shows it whole. */}
            <button
              type="button"
              className="legend-item"
              aria-pressed={focus === item.key}
              title={`${item.label}: ${focus === item.key ? 'show all groups' : 'show this group alone'}`}
              onClick={() => onFocus(focus === item.key ? null : item.key)}
            >
              <span className="swatch" style={{ background: item.color }} />
              <span className="legend-label">{item.label}</span>
            </button>
          </li>
        ))}
      </ul>
      {other && other.share >= 0.5 ? (
        <p className="small">
          “Other” is {formatPercent(other.share)} of these traces: {formatCount(other.groups)}{' '}
          groups, none above {formatPercent(other.largestShare)}. Open it in the table below to list
          them; click a row there to chart that group alone.
        </p>
      ) : null}
      {zoomable ? (
        <p className="muted small">
          <span className="pointer-hint">
            Click a bar (or focus the chart, move with ← →, press Enter) to see that period in finer
            buckets.
          </span>
          <span className="touch-hint">Tap a bar to see that period in finer buckets.</span>
        </p>
      ) : null}
      {partialFirstMs !== null ? (
        <p className="muted small">
          * {formatUtc(partialFirstMs, 'MMMM yyyy')} is partial: the range starts on{' '}
          {formatUtc(partialFirstMs, 'MMM d')}.
        </p>
      ) : null}
      {partialBucketMs !== null ? (
        <p className="muted small">
          {nowMs < matrix.grid.endMs
            ? `* ${formatUtc(partialBucketMs, matrix.grid.stride.days === 0 ? 'HH:mm' : 'MMM d')} is still in progress (partial).${futureFrom !== null ? ' Later buckets have not started: shaded “not yet”, with no bars.' : ''}`
            : '* The last bucket is partial: the range ends inside it.'}
        </p>
      ) : null}
    </>
  );
}
