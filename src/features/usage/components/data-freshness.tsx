import type { ReactNode } from 'react';
import { formatUtc } from '@/lib/format-utc';

/**
 * When the figures on screen were read, and the one rule a reader needs to read them (each
 * tab says what it counts and when); the rule folds away on a phone, the stamp stays.
 */
export function DataFreshness({
  updatedAtMs,
  children,
}: {
  updatedAtMs: number | null;
  children: ReactNode;
}) {
  return (
    <p className="muted small data-freshness" role="note">
      {updatedAtMs ? (
        <>
          Data as of{' '}
          <time dateTime={new Date(updatedAtMs).toISOString()}>
            {formatUtc(updatedAtMs, 'MMM d, yyyy HH:mm:ss')} UTC
          </time>
          .{' '}
        </>
      ) : null}
      <span className="data-freshness-rule">{children}</span>
    </p>
  );
}

/** LangSmith bills a trace when it is ingested: a late upload or a rolled-back run still counts. */
export const TRACES_COUNTING_RULE =
  'Counts go by ingestion time: a trace counts when it is received, even if its run is deleted later.';

/** What the deployments service meters (server/usage/README.md, "Metering"). */
export const DEPLOYMENTS_COUNTING_RULE =
  'A run and its nodes count when they run; uptime is the time each replica was up, summed across replicas.';
