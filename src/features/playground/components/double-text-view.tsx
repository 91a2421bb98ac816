import type { useDoubleText } from '@/features/playground/api/use-double-text';
import { useEffect, useRef } from 'react';
import { useConsoleConfig } from '@/lib/console-config';
import { scrollIntoViewGently } from './scroll-into-view';
import { DoubleTextResult } from './double-text-result';
import { FlowBilling } from './flow-billing';
import { FlowErrorCallout } from './error-callout';
import { FlowTimeline } from './flow-timeline';
import { LiveMessages } from './live-messages';

/** The single-strategy flow: the live timeline and streamed messages, then the result or error. */
export function DoubleTextView({ mutation }: { mutation: ReturnType<typeof useDoubleText> }) {
  const { variables, liveSteps, liveMessages } = mutation;
  // Billing is known only for the embedded deployment tracing to the embedded usage data, in a
  // project named after the graph the thread ran.
  const traced = useConsoleConfig().data?.deployment.tracesToEmbeddedUsage;
  const project = variables?.connection.kind === 'embedded' && traced && mutation.data?.graphId;
  const sectionRef = useRef<HTMLElement>(null);
  // A new run: the screen moves to where it unfolds (at 390 px the form fills the screen).
  const { submittedAt } = mutation;
  useEffect(() => {
    if (submittedAt > 0 && sectionRef.current) scrollIntoViewGently(sectionRef.current, 'nearest');
  }, [submittedAt]);
  return (
    <section ref={sectionRef} className="panel" aria-labelledby="pg-result-heading">
      <h2 id="pg-result-heading">Result</h2>
      {mutation.isPending && (
        <div className="pg-columns">
          <FlowTimeline steps={liveSteps} running />
          <LiveMessages streamed={liveMessages} />
        </div>
      )}
      {mutation.isError && variables && (
        <>
          <FlowErrorCallout
            error={mutation.error}
            connection={variables.connection}
            assistantId={variables.assistantId}
          />
          {liveSteps.length > 0 && <FlowTimeline steps={liveSteps} />}
        </>
      )}
      {mutation.isSuccess && <DoubleTextResult outcome={mutation.data} />}
      {mutation.isSuccess && project && (
        <FlowBilling
          key={mutation.submittedAt}
          project={project}
          startedAtMs={mutation.submittedAt}
          totalMs={mutation.data.totalMs}
        />
      )}
    </section>
  );
}
