import { CLOUD_USAGE_DATA_START } from '@contracts/usage/usage-values';
import { useConsoleConfig } from '@/lib/console-config';
import type { TimeRange } from '../model/time-range';

const CLOUD_FLOOR_MS = Date.parse(CLOUD_USAGE_DATA_START);

/**
 * The instant before which no usage data exists: 2026-01-05 on cloud (LangSmith, or the embedded
 * server in cloud mode). A self-hosted server collects from when the feature was enabled: none.
 */
export function useDataFloor(): number | null {
  const config = useConsoleConfig();
  const selfHosted =
    config.data?.usage.source === 'embedded' && config.data.usage.deploymentMode === 'self-hosted';
  return selfHosted ? null : CLOUD_FLOOR_MS;
}

/** Says so when the range reaches before the data floor, instead of showing silent zeros. */
export function DataFloorNotice({ range }: { range: TimeRange }) {
  const floorMs = useDataFloor();
  if (floorMs === null || range.startMs >= floorMs) return null;
  return (
    <p className="notice" role="note">
      Granular usage data exists from <strong>January 5, 2026 (UTC)</strong> on. The part of this
      range before that date has no data and is shaded in the chart.
    </p>
  );
}
