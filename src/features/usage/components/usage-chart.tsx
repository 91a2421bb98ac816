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
import { formatCompact, formatCount, formatUtc } from '@/lib/format';
import type { ChartSeries } from '../model/top-series';
import type { UsageMatrix } from '../model/usage-matrix';
import { seriesColor } from './series-colors';

interface UsageChartProps {
  matrix: UsageMatrix;
  series: ChartSeries[];
  hidden: ReadonlySet<string>;
  /** Buckets before this instant have no data by definition (shaded). */
  floorMs: number;
  /** Start of the last bucket when it is still in progress. */
  partialBucketMs: number | null;
}

type ChartRow = Record<string, number>;

// Recharts copies props into its store after each render; props that change identity on every
// render (inline objects and functions) cost extra passes, so the constant ones live here.
const MARGIN = { top: 8, right: 8, bottom: 4, left: 4 };
const TICK = { fontSize: 12, fill: '#5b6470' };
const X_AXIS_LINE = { stroke: '#d0d5dd' };
const CURSOR = { fill: 'rgb(16 24 40 / 5%)' };
const formatYTick = (value: number) => formatCompact(value);

function tickPattern(matrix: UsageMatrix): string {
  const { grid } = matrix;
  if (grid.stride.days === 0) return 'MMM d HH:mm';
  return grid.count > 0 && grid.endMs - grid.startMs > 200 * 86_400_000 ? 'MMM d, yyyy' : 'MMM d';
}

/** Stacked bars per bucket: the top groups plus "Other", in UTC. */
export const UsageChart = memo(function UsageChart({
  matrix,
  series,
  hidden,
  floorMs,
  partialBucketMs,
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
    (value: number) => `${formatUtc(value, pattern)}${value === partialBucketMs ? '*' : ''}`,
    [pattern, partialBucketMs],
  );
  const tooltip = useCallback(
    ({ active, label }: Pick<TooltipContentProps, 'active' | 'label'>) => (
      <BucketTooltip
        active={active}
        label={label}
        matrix={matrix}
        series={series}
        hidden={hidden}
        partialBucketMs={partialBucketMs}
      />
    ),
    [matrix, series, hidden, partialBucketMs],
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
        {partialBucketMs !== null ? (
          <ReferenceArea
            x1={partialBucketMs}
            x2={partialBucketMs}
            fill="#f79009"
            fillOpacity={0.08}
          />
        ) : null}
        <Tooltip cursor={CURSOR} isAnimationActive={false} content={tooltip} />
        {series.map((item, index) => (
          <Bar
            key={item.key}
            dataKey={item.key}
            name={item.label}
            stackId="usage"
            fill={seriesColor(item, index)}
            hide={hidden.has(item.key)}
            isAnimationActive={false}
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
  hidden,
  partialBucketMs,
}: Pick<TooltipContentProps, 'active' | 'label'> & {
  matrix: UsageMatrix;
  series: ChartSeries[];
  hidden: ReadonlySet<string>;
  partialBucketMs: number | null;
}) {
  if (!active || typeof label !== 'number') return null;
  const index = matrix.buckets.indexOf(label);
  if (index === -1) return null;
  const end = matrix.grid.end(index);
  const hourly = matrix.grid.stride.days === 0;
  const pattern = hourly ? 'MMM d, yyyy HH:mm' : 'MMM d, yyyy';
  const shownEnd = hourly ? end : end - 1;
  const visible = series.filter((item) => !hidden.has(item.key));
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-title">
        {formatUtc(label, pattern)}
        {shownEnd > label && !(matrix.grid.stride.days === 1 && !hourly)
          ? ` – ${formatUtc(shownEnd, pattern)}`
          : ''}{' '}
        UTC
        {label === partialBucketMs ? ' (in progress)' : ''}
      </div>
      <table>
        <tbody>
          {visible.map((item) => (
            <tr key={item.key}>
              <td>
                <span
                  className="swatch"
                  style={{ background: seriesColor(item, series.indexOf(item)) }}
                />
                {item.label}
              </td>
              <td className="num">{formatCount(item.values[index] ?? 0)}</td>
            </tr>
          ))}
          <tr className="total-row">
            <td>Total</td>
            <td className="num">{formatCount(matrix.bucketTotals[index] ?? 0)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
