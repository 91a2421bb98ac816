import { lazy, Suspense, useMemo, useState } from 'react';
import { formatUtc } from '@/lib/format-utc';
import { partialBucketStart, partialFirstMonthStart } from '../model/partial-bucket';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { topSeriesWithOther } from '../model/top-series';
import type { UsageMatrix } from '../model/usage-matrix';
import { useDataFloor } from './data-floor-notice';
import { seriesColor } from './series-colors';
import { UsageError } from './usage-error';

// Recharts is most of the tab's JavaScript: its own chunk. The tab starts loading it when it
// mounts (preloadUsageChart), in parallel with the first usage request, so controls and totals
// paint first; other routes (the playground) never load it.
export const preloadUsageChart = () => import('./usage-chart');
const UsageChart = lazy(() =>
  preloadUsageChart().then((module) => ({ default: module.UsageChart })),
);

interface UsageChartPanelProps {
  view: ResolvedUsageView;
  matrix: UsageMatrix | undefined;
  nowMs: number;
  pricePer1k: number;
  isFetching: boolean;
  isPlaceholder: boolean;
  error: Error | null;
  onRetry: () => void;
  onChangeKey: () => void;
}

/** Owns the chart's loading, empty and error states; the previous chart stays while refetching. */
export function UsageChartPanel({
  view,
  matrix,
  nowMs,
  pricePer1k,
  isFetching,
  isPlaceholder,
  error,
  onRetry,
  onChangeKey,
}: UsageChartPanelProps) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <section
      className="panel chart-panel"
      aria-labelledby="usage-chart-heading"
      aria-busy={isFetching}
    >
      <div className="panel-heading">
        <h3 id="usage-chart-heading">Traces over time</h3>
        <span className="muted small">
          {isFetching && matrix ? 'Updating…' : `Bucket start, UTC · ${describeStride(view)}`}
        </span>
      </div>
      {error ? <UsageError error={error} onRetry={onRetry} onChangeKey={onChangeKey} /> : null}
      {!matrix && !error ? (
        <div className="chart-skeleton" role="status">
          Loading usage…
        </div>
      ) : null}
      {matrix ? (
        <ChartBody
          matrix={matrix}
          nowMs={nowMs}
          pricePer1k={pricePer1k}
          hidden={hidden}
          onToggle={toggle}
          stale={isPlaceholder}
        />
      ) : null}
    </section>
  );
}

function ChartBody({
  matrix,
  nowMs,
  pricePer1k,
  hidden,
  onToggle,
  stale,
}: {
  matrix: UsageMatrix;
  nowMs: number;
  pricePer1k: number;
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
  stale: boolean;
}) {
  // Stable across re-renders of the same data, so the memoised chart does not redraw.
  const floorMs = useDataFloor();
  const series = useMemo(() => topSeriesWithOther(matrix), [matrix]);
  const partialBucketMs = partialBucketStart(matrix, nowMs);
  const partialFirstMs = partialFirstMonthStart(matrix);
  const partialBuckets = useMemo(
    () => [partialFirstMs, partialBucketMs].filter((ms): ms is number => ms !== null),
    [partialFirstMs, partialBucketMs],
  );

  if (matrix.total === 0) {
    return (
      <div className="empty-state">
        <p>
          <strong>No traces in this range.</strong>
        </p>
        <p>
          {floorMs !== null && matrix.grid.endMs <= floorMs
            ? 'Granular usage data exists from January 5, 2026 (UTC) on; this range ends before it.'
            : `Nothing was billed to the selected workspaces between ${formatUtc(matrix.grid.startMs, 'MMM d, yyyy')} and ${formatUtc(matrix.grid.endMs - 1, 'MMM d, yyyy')} (UTC).`}
        </p>
      </div>
    );
  }

  return (
    <div className={stale ? 'chart-body stale' : 'chart-body'}>
      <Suspense fallback={<div className="chart-skeleton">Loading chart…</div>}>
        <UsageChart
          matrix={matrix}
          series={series}
          hidden={hidden}
          floorMs={floorMs ?? Number.NEGATIVE_INFINITY}
          partialBuckets={partialBuckets}
          pricePer1k={pricePer1k}
        />
      </Suspense>
      <ul className="legend" aria-label="Series">
        {series.map((item, index) => (
          <li key={item.key}>
            <button
              type="button"
              className="legend-item"
              aria-pressed={!hidden.has(item.key)}
              title={hidden.has(item.key) ? 'Show this series' : 'Hide this series'}
              onClick={() => onToggle(item.key)}
            >
              <span className="swatch" style={{ background: seriesColor(item, index) }} />
              {item.label}
            </button>
          </li>
        ))}
      </ul>
      {partialFirstMs !== null ? (
        <p className="muted small">
          * {formatUtc(partialFirstMs, 'MMMM yyyy')} is partial: the range starts on{' '}
          {formatUtc(partialFirstMs, 'MMM d')}.
        </p>
      ) : null}
      {partialBucketMs !== null ? (
        <p className="muted small">
          {nowMs < matrix.grid.endMs
            ? '* The last bucket is still in progress (partial).'
            : '* The last bucket is partial: the range ends inside it.'}
        </p>
      ) : null}
    </div>
  );
}

function describeStride(view: ResolvedUsageView): string {
  if (view.aggregation === 'calendar-month') return 'calendar months (UTC)';
  if (view.stride.days === 0) return 'hourly buckets';
  if (view.stride.days === 1) return 'daily buckets';
  return `${view.stride.days}-day buckets`;
}
