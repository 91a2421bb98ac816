import { memo, useCallback, useMemo } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
  type TooltipContentProps,
} from 'recharts';
import { useMediaQuery } from '@/components/ui/use-media-query';
import { formatCount } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import { isCalendarMonthGrid } from '../model/calendar-month-grid';
import { chartRows } from '../model/chart-rows';
import { formatTickValue, hourlyTicks, niceYTicks } from '../model/chart-ticks';
import { estimateCost, formatUsd } from '../model/cost-estimate';
import type { LimitLine } from '../model/chart-limit-line';
import type { UsageMatrix } from '../model/usage-matrix';
import { KeyboardZoom } from './keyboard-zoom';
import type { ColoredSeries } from './series-colors';
import { HOUR_MS } from '@contracts/usage/time';

interface UsageChartProps {
  matrix: UsageMatrix;
  /** The series drawn (all groups, or the focused one), stacked. */
  series: ColoredSeries[];
  /** Buckets before this instant have no data by definition (shaded). */
  floorMs: number;
  /** Starts of partial buckets (in progress, or a calendar month the range cuts): marked `*`. */
  partialBuckets: readonly number[];
  /** Index of the first bucket after now: from there on nothing is drawn but "not yet". */
  futureFrom: number | null;
  /** Dollars per 1,000 traces: the tooltip's estimated cost; null for a chart of no traces. */
  pricePer1k: number | null;
  /** Called with the bucket index of a clicked bar; bars are not clickable without it. */
  onBucketClick: ((index: number) => void) | undefined;
  /** A monthly usage limit, drawn over calendar-month bars. */
  limitLine?: LimitLine | null;
}

// Recharts copies props into its store after each render; props that change identity on every
// render (inline objects and functions) cost extra passes, so the constant ones live here.
const MARGIN = { top: 8, right: 8, bottom: 4, left: 4 };
// Colours come from CSS variables, so the dark theme recolours the axes without a re-render.
const TICK = { fontSize: 12, fill: 'var(--chart-tick)' };
const X_AXIS_LINE = { stroke: 'var(--chart-axis)' };
const CURSOR = { fill: 'var(--chart-cursor)' };
const CLICKABLE = { cursor: 'zoom-in' };
const NOT_YET_LABEL = {
  value: 'not yet',
  position: 'insideTop' as const,
  fill: 'var(--chart-tick)',
  fontSize: 12,
};

/**
 * One bucket's stack as plain <rect>s, first series at the bottom: Recharts draws a single bar
 * per bucket (its height is the stack's total) and this splits it by the series' values. One
 * Recharts series instead of one per group is most of what a new grouping used to cost (~330
 * segments, each a Recharts bar item). An empty bucket draws nothing.
 */
function StackedSegments({
  x,
  y,
  width,
  height,
  index,
  series,
}: Pick<BarShapeProps, 'x' | 'y' | 'width' | 'height' | 'index'> & {
  series: readonly ColoredSeries[];
}) {
  const total = series.reduce((sum, item) => sum + (item.values[index] ?? 0), 0);
  if (!(height > 0) || !(width > 0) || !(total > 0)) return <g />;
  const segments: { key: string; top: number; height: number; fill: string }[] = [];
  let bottom = y + height;
  for (const item of series) {
    const value = item.values[index] ?? 0;
    if (!(value > 0)) continue;
    const segment = (height * value) / total;
    bottom -= segment;
    segments.push({ key: item.key, top: bottom, height: segment, fill: item.color });
  }
  return (
    <g>
      {segments.map((segment) => (
        <rect
          key={segment.key}
          x={x}
          y={segment.top}
          width={width}
          height={segment.height}
          fill={segment.fill}
        />
      ))}
    </g>
  );
}

function tickPattern(matrix: UsageMatrix): string {
  const { grid } = matrix;
  if (grid.stride.days === 0) return 'HH:mm';
  if (isCalendarMonthGrid(grid)) return 'MMM yyyy';
  return grid.count > 0 && grid.endMs - grid.startMs > 200 * 86_400_000 ? 'MMM d, yyyy' : 'MMM d';
}

/** Stacked bars per bucket: the top groups plus "Other", in UTC. */
export const UsageChart = memo(function UsageChart({
  matrix,
  series,
  floorMs,
  partialBuckets,
  futureFrom,
  pricePer1k,
  onBucketClick,
  limitLine = null,
}: UsageChartProps) {
  const narrow = useMediaQuery('(max-width: 640px)');
  // Buckets after now get no values: no bar, rather than a zero that reads as an outage.
  const { rows, yTicks } = useMemo(() => {
    const built = chartRows(matrix.buckets, series, futureFrom);
    return { rows: built.rows, yTicks: niceYTicks(built.max) };
  }, [matrix, series, futureFrom]);
  const hourly = matrix.grid.stride.days === 0;
  // Hourly ticks fall on midnight and every 1, 2, 3, 6 or 12 hours from it; midnight names the day.
  const xTicks = useMemo(
    () => (hourly ? hourlyTicks(matrix.buckets, narrow ? 4 : 12) : undefined),
    [hourly, matrix, narrow],
  );
  const pattern = tickPattern(matrix);
  const formatXTick = useCallback(
    (value: number) =>
      `${formatUtc(value, hourly && value % (24 * HOUR_MS) === 0 ? 'MMM d' : pattern)}${partialBuckets.includes(value) ? '*' : ''}`,
    [pattern, hourly, partialBuckets],
  );
  const tooltip = useCallback(
    ({ active, label }: Pick<TooltipContentProps, 'active' | 'label'>) => (
      <BucketTooltip
        active={active}
        label={label}
        matrix={matrix}
        series={series}
        partialBuckets={partialBuckets}
        futureFrom={futureFrom}
        pricePer1k={pricePer1k}
        zoomable={onBucketClick !== undefined}
      />
    ),
    [matrix, series, partialBuckets, futureFrom, pricePer1k, onBucketClick],
  );
  // The clicked bar segment's own index: the chart-level click reads the hovered column, which
  // is not set yet when a click comes without a hover first (touch, a test's click).
  const clickBar = useCallback(
    (_bar: unknown, index: number) => {
      if (index >= 0 && index < matrix.buckets.length) onBucketClick?.(index);
    },
    [matrix, onBucketClick],
  );
  const stackShape = useCallback(
    (props: BarShapeProps) => <StackedSegments {...props} series={series} />,
    [series],
  );
  const lastBucket = matrix.buckets.at(-1);
  const firstFuture = futureFrom === null ? undefined : matrix.buckets[futureFrom];
  const firstBucket = matrix.buckets[0];
  const lastBeforeFloor = matrix.buckets
    .filter((_bucket, k) => matrix.grid.end(k) <= floorMs)
    .at(-1);

  return (
    <ResponsiveContainer width="100%" height={narrow ? 260 : 280}>
      <BarChart data={rows} margin={MARGIN} barCategoryGap="18%">
        <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
        <XAxis
          dataKey="bucket"
          tickFormatter={formatXTick}
          tick={TICK}
          tickLine={false}
          axisLine={X_AXIS_LINE}
          minTickGap={16}
          {...(xTicks ? { ticks: xTicks, interval: 0 } : {})}
        />
        <YAxis
          tickFormatter={formatTickValue}
          tick={TICK}
          tickLine={false}
          axisLine={false}
          width={52}
          domain={[0, yTicks.top]}
          ticks={yTicks.ticks}
          interval={0}
          allowDecimals={false}
        />
        {firstBucket !== undefined && lastBeforeFloor !== undefined ? (
          <ReferenceArea
            x1={firstBucket}
            x2={lastBeforeFloor}
            fill="var(--chart-floor)"
            fillOpacity={1}
            ifOverflow="extendDomain"
          />
        ) : null}
        {firstFuture !== undefined && lastBucket !== undefined ? (
          <ReferenceArea
            x1={firstFuture}
            x2={lastBucket}
            fill="var(--chart-not-yet)"
            fillOpacity={1}
            label={NOT_YET_LABEL}
          />
        ) : null}
        {partialBuckets.map((bucket) => (
          <ReferenceArea
            key={bucket}
            x1={bucket}
            x2={bucket}
            fill="var(--chart-partial)"
            fillOpacity={1}
          />
        ))}
        <Tooltip cursor={CURSOR} isAnimationActive={false} content={tooltip} />
        {limitLine ? (
          <ReferenceLine
            y={limitLine.value}
            stroke="var(--limit-line, #d92d20)"
            strokeDasharray="6 4"
            ifOverflow="extendDomain"
            label={{
              value: `${limitLine.label}: ${formatCount(limitLine.value)}`,
              position: 'insideTopRight',
              fill: 'var(--chart-tick)',
              fontSize: 12,
            }}
          />
        ) : null}
        {onBucketClick ? <KeyboardZoom buckets={matrix.buckets} onZoom={onBucketClick} /> : null}
        <Bar
          dataKey="total"
          name="Traces"
          fill={series[0]?.color ?? 'var(--chart-tick)'}
          isAnimationActive={false}
          shape={stackShape}
          onClick={onBucketClick ? clickBar : undefined}
          style={onBucketClick ? CLICKABLE : undefined}
        />
      </BarChart>
    </ResponsiveContainer>
  );
});

function BucketTooltip({
  active,
  label,
  matrix,
  series,
  partialBuckets,
  futureFrom,
  pricePer1k,
  zoomable,
}: Pick<TooltipContentProps, 'active' | 'label'> & {
  matrix: UsageMatrix;
  series: ColoredSeries[];
  partialBuckets: readonly number[];
  futureFrom: number | null;
  pricePer1k: number | null;
  zoomable: boolean;
}) {
  if (!active || typeof label !== 'number') return null;
  const index = matrix.buckets.indexOf(label);
  if (index === -1) return null;
  const end = matrix.grid.end(index);
  const hourly = matrix.grid.stride.days === 0;
  const pattern = hourly ? 'MMM d, yyyy HH:mm' : 'MMM d, yyyy';
  const shownEnd = hourly ? end : end - 1;
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-title">
        {isCalendarMonthGrid(matrix.grid) ? `${formatUtc(label, 'MMMM yyyy')}: ` : ''}
        {formatUtc(label, pattern)}
        {(shownEnd > label && !(matrix.grid.stride.days === 1 && !hourly)) ||
        isCalendarMonthGrid(matrix.grid)
          ? ` – ${formatUtc(shownEnd, pattern)}`
          : ''}{' '}
        UTC
        {partialBuckets.includes(label) ? ' (partial)' : ''}
      </div>
      {futureFrom !== null && index >= futureFrom ? (
        <div className="muted">Not yet: this period has not started, so nothing is counted.</div>
      ) : (
        <BucketFigures
          index={index}
          matrix={matrix}
          series={series}
          pricePer1k={pricePer1k}
          zoomable={zoomable}
        />
      )}
    </div>
  );
}

function BucketFigures({
  index,
  matrix,
  series,
  pricePer1k,
  zoomable,
}: {
  index: number;
  matrix: UsageMatrix;
  series: ColoredSeries[];
  pricePer1k: number | null;
  zoomable: boolean;
}) {
  return (
    <>
      <table>
        <tbody>
          {series.map((item) => (
            <tr key={item.key}>
              <td>
                <span className="swatch" style={{ background: item.color }} />
                {item.label}
              </td>
              <td className="num">{formatCount(item.values[index] ?? 0)}</td>
            </tr>
          ))}
          <tr className="total-row">
            <td>Total</td>
            <td className="num">{formatCount(matrix.bucketTotals[index] ?? 0)}</td>
          </tr>
          {pricePer1k === null ? null : (
            <tr>
              <td>Estimated cost</td>
              <td className="num">
                {formatUsd(estimateCost(matrix.bucketTotals[index] ?? 0, pricePer1k))}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {zoomable ? <div className="muted small">Click a bar for finer buckets</div> : null}
    </>
  );
}
