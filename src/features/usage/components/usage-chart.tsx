import { memo, useCallback, useMemo } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';
import { formatCompact, formatCount } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import { isCalendarMonthGrid } from '../model/calendar-month-grid';
import { estimateCost, formatUsd } from '../model/cost-estimate';
import type { UsageMatrix } from '../model/usage-matrix';
import { KeyboardZoom } from './keyboard-zoom';
import type { ColoredSeries } from './series-colors';

interface UsageChartProps {
  matrix: UsageMatrix;
  /** The series drawn (all groups, or the focused one), stacked. */
  series: ColoredSeries[];
  /** Buckets before this instant have no data by definition (shaded). */
  floorMs: number;
  /** Starts of partial buckets (in progress, or a calendar month the range cuts): marked `*`. */
  partialBuckets: readonly number[];
  /** Dollars per 1,000 traces: the tooltip's estimated cost; null for a chart of no traces. */
  pricePer1k: number | null;
  /** Called with the bucket index of a clicked bar; bars are not clickable without it. */
  onBucketClick: ((index: number) => void) | undefined;
}

type ChartRow = Record<string, number>;

// Recharts copies props into its store after each render; props that change identity on every
// render (inline objects and functions) cost extra passes, so the constant ones live here.
const MARGIN = { top: 8, right: 8, bottom: 4, left: 4 };
const TICK = { fontSize: 12, fill: '#5b6470' };
const X_AXIS_LINE = { stroke: '#d0d5dd' };
const CURSOR = { fill: 'rgb(16 24 40 / 5%)' };
const CLICKABLE = { cursor: 'zoom-in' };
const formatYTick = (value: number) => formatCompact(value);

function tickPattern(matrix: UsageMatrix): string {
  const { grid } = matrix;
  if (grid.stride.days === 0) return 'MMM d HH:mm';
  if (isCalendarMonthGrid(grid)) return 'MMM yyyy';
  return grid.count > 0 && grid.endMs - grid.startMs > 200 * 86_400_000 ? 'MMM d, yyyy' : 'MMM d';
}

/** Stacked bars per bucket: the top groups plus "Other", in UTC. */
export const UsageChart = memo(function UsageChart({
  matrix,
  series,
  floorMs,
  partialBuckets,
  pricePer1k,
  onBucketClick,
}: UsageChartProps) {
  const rows = useMemo(
    () =>
      matrix.buckets.map((bucket, index) => {
        const row: ChartRow = { bucket };
        for (const item of series) row[item.key] = item.values[index] ?? 0;
        return row;
      }),
    [matrix, series],
  );
  const pattern = tickPattern(matrix);
  const formatXTick = useCallback(
    (value: number) => `${formatUtc(value, pattern)}${partialBuckets.includes(value) ? '*' : ''}`,
    [pattern, partialBuckets],
  );
  const tooltip = useCallback(
    ({ active, label }: Pick<TooltipContentProps, 'active' | 'label'>) => (
      <BucketTooltip
        active={active}
        label={label}
        matrix={matrix}
        series={series}
        partialBuckets={partialBuckets}
        pricePer1k={pricePer1k}
        zoomable={onBucketClick !== undefined}
      />
    ),
    [matrix, series, partialBuckets, pricePer1k, onBucketClick],
  );
  // The clicked bar segment's own index: the chart-level click reads the hovered column, which
  // is not set yet when a click comes without a hover first (touch, a test's click).
  const clickBar = useCallback(
    (_bar: unknown, index: number) => {
      if (index >= 0 && index < matrix.buckets.length) onBucketClick?.(index);
    },
    [matrix, onBucketClick],
  );
  const firstBucket = matrix.buckets[0];
  const lastBeforeFloor = matrix.buckets
    .filter((_bucket, k) => matrix.grid.end(k) <= floorMs)
    .at(-1);

  return (
    <ResponsiveContainer width="100%" height={320}>
      <BarChart data={rows} margin={MARGIN} barCategoryGap="18%">
        <CartesianGrid vertical={false} stroke="#eaecf0" />
        <XAxis
          dataKey="bucket"
          tickFormatter={formatXTick}
          tick={TICK}
          tickLine={false}
          axisLine={X_AXIS_LINE}
          minTickGap={16}
        />
        <YAxis
          tickFormatter={formatYTick}
          tick={TICK}
          tickLine={false}
          axisLine={false}
          width={48}
          allowDecimals={false}
        />
        {firstBucket !== undefined && lastBeforeFloor !== undefined ? (
          <ReferenceArea
            x1={firstBucket}
            x2={lastBeforeFloor}
            fill="#98a2b3"
            fillOpacity={0.12}
            ifOverflow="extendDomain"
          />
        ) : null}
        {partialBuckets.map((bucket) => (
          <ReferenceArea key={bucket} x1={bucket} x2={bucket} fill="#f79009" fillOpacity={0.08} />
        ))}
        <Tooltip cursor={CURSOR} isAnimationActive={false} content={tooltip} />
        {onBucketClick ? <KeyboardZoom buckets={matrix.buckets} onZoom={onBucketClick} /> : null}
        {series.map((item) => (
          <Bar
            key={item.key}
            dataKey={item.key}
            name={item.label}
            stackId="usage"
            fill={item.color}
            isAnimationActive={false}
            onClick={onBucketClick ? clickBar : undefined}
            style={onBucketClick ? CLICKABLE : undefined}
          />
        ))}
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
  pricePer1k,
  zoomable,
}: Pick<TooltipContentProps, 'active' | 'label'> & {
  matrix: UsageMatrix;
  series: ColoredSeries[];
  partialBuckets: readonly number[];
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
              <td>Estimated cost (estimate)</td>
              <td className="num">
                ≈ {formatUsd(estimateCost(matrix.bucketTotals[index] ?? 0, pricePer1k))}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {zoomable ? <div className="muted small">Click a bar for finer buckets</div> : null}
    </div>
  );
}
