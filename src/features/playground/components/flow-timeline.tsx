import { Spinner } from '@/components/ui/spinner';
import type { TimelineStep } from '@/features/playground/model/flow-types';
import { formatDuration, formatOffset } from '@/features/playground/model/relative-time';

/** The calls of the flow with when each started (relative to the start) and how long it took. */
export function FlowTimeline({
  steps,
  running = false,
}: {
  steps: TimelineStep[];
  running?: boolean;
}) {
  return (
    <section className="pg-card" aria-labelledby="pg-timeline-heading">
      <h3 id="pg-timeline-heading">Timeline</h3>
      {steps.length === 0 && !running ? (
        <p className="pg-muted">No steps yet.</p>
      ) : (
        <ol className="timeline" aria-label="Timeline" aria-busy={running}>
          {steps.map((step) => (
            <li key={step.kind} className={`timeline-step timeline-${step.kind}`}>
              <span className="timeline-offset">{formatOffset(step.startMs)}</span>
              <span className="timeline-label">{step.label}</span>
              <span className="timeline-duration">{formatDuration(step.durationMs)}</span>
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
              <span className="timeline-label pg-muted">Waiting for the deployment…</span>
            </li>
          )}
        </ol>
      )}
    </section>
  );
}
