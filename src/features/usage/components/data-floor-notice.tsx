import { CLOUD_USAGE_DATA_START } from '@/contracts/usage';
import type { TimeRange } from '../model/time-range';

const FLOOR_MS = Date.parse(CLOUD_USAGE_DATA_START);

export function rangeStartsBeforeFloor(range: TimeRange): boolean {
  return range.startMs < FLOOR_MS;
}

/** Cloud keeps granular usage from 2026-01-05 on: say so instead of showing silent zeros. */
export function DataFloorNotice({ range }: { range: TimeRange }) {
  if (!rangeStartsBeforeFloor(range)) return null;
  return (
    <p className="notice" role="note">
      Granular usage data exists from <strong>January 5, 2026 (UTC)</strong> on. The part of this
      range before that date has no data and is shaded in the chart.
    </p>
  );
}
