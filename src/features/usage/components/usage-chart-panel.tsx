import { formatUtc } from '@/lib/format-utc';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import type { UsageMatrix } from '../model/usage-matrix';
import { useLimitStatus } from '../api/get-limit-status';
import { isCalendarMonthGrid } from '../model/calendar-month-grid';
import { chartLimitLine } from '../model/chart-limit-line';
import { ChartBody } from './chart-body';
import { useDataFloor } from './data-floor-notice';
import { UsageError } from './usage-error';

export { preloadUsageChart } from './chart-body';

interface UsageChartPanelProps {
  view: ResolvedUsageView;
  matrix: UsageMatrix | undefined;
  nowMs: number;
  pricePer1k: number;
  focus: string | null;
  onFocus: (key: string | null) => void;
  onZoom: ((index: number) => void) | undefined;
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
  focus,
  onFocus,
  onZoom,
  isFetching,
  isPlaceholder,
  error,
  onRetry,
  onChangeKey,
}: UsageChartPanelProps) {
  const floorMs = useDataFloor();
  // Shares the limits card's query: no request of its own.
  const limits = useLimitStatus();
  const limitLine =
    matrix && isCalendarMonthGrid(matrix.grid)
      ? chartLimitLine(limits.data, view.workspaceIds, view.groupBy, focus)
      : null;
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
      {matrix && matrix.total === 0 ? (
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
      ) : null}
      {matrix && matrix.total > 0 ? (
        <ChartBody
          matrix={matrix}
          nowMs={nowMs}
          pricePer1k={pricePer1k}
          focus={focus}
          onFocus={onFocus}
          onZoom={onZoom}
          stale={isPlaceholder}
          limitLine={limitLine}
        />
      ) : null}
    </section>
  );
}

function describeStride(view: ResolvedUsageView): string {
  if (view.aggregation === 'calendar-month') return 'calendar months (UTC)';
  if (view.stride.days === 0) return 'hourly buckets';
  if (view.stride.days === 1) return 'daily buckets';
  return `${view.stride.days}-day buckets`;
}
