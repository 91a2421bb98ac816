import { Spinner } from '@/components/ui/spinner';
import type { TimelineStep } from '@/features/playground/model/flow-types';
import { formatDuration, formatOffset } from '@/features/playground/model/relative-time';

interface FlowTimelineProps {
  steps: TimelineStep[];
  running?: boolean;
  /** Unique per page: the compare view shows four timelines. */
  idPrefix?: string;
  title?: string;
}

/**
 * Every moment of the flow on one time axis: the calls (with how long each took), each message as
 * it streamed in (tagged with its run), when run 2 was sent and when run 1's stream ended.
 */
export function FlowTimeline({
  steps,
  running = false,
  idPrefix = 'pg',
  title = 'Timeline',
}: FlowTimelineProps) {
  const headingId = `${idPrefix}-timeline-heading`;
  // Steps are reported when they end; the axis orders them by when they started (stable sort).
  const ordered = [...steps].sort((a, b) => a.startMs - b.startMs);
  return (
    <section className="pg-card" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {steps.length === 0 && !running ? (
        <p className="pg-muted">No steps yet.</p>
      ) : (
        <ol className="timeline" aria-label={title} aria-busy={running}>
          {ordered.map((step, index) => (
            <li
              key={`${step.kind}-${index}`}
              className={`timeline-step timeline-${step.kind}${step.run ? ` timeline-run-${step.run}` : ''}`}
            >
              <span className="timeline-offset">{formatOffset(step.startMs)}</span>
              <span className="timeline-label">{step.label}</span>
              <span className="timeline-duration">
                {step.durationMs === undefined ? '' : formatDuration(step.durationMs)}
              </span>
              {(step.runId ?? step.detail) && (
                <span className="timeline-detail">
                  {step.runId && <code title="Run id">{step.runId}</code>}
                  {step.runId && step.detail && ' · '}
                  {step.detail}
                </span>
              )}
            </li>
          ))}
          {running && (
            <li className="timeline-step timeline-pending" aria-hidden="true">
              <Spinner />
              <span className="timeline-label pg-muted">Streaming from the deployment…</span>
            </li>
          )}
        </ol>
      )}
    </section>
  );
}
