import { formatUtc } from '@/lib/format-utc';

/**
 * When the figures on screen were read, and what they count: LangSmith bills a trace when it is
 * ingested, so a trace counts in the bucket of its arrival (not of its start), and a run deleted
 * later (a rollback) stays counted.
 */
export function DataFreshness({ updatedAtMs }: { updatedAtMs: number | null }) {
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
      Counts go by ingestion time: a trace counts when it is received, even if its run is deleted
      later.
    </p>
  );
}
