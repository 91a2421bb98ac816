import type { useDoubleText } from '@/features/playground/api/use-double-text';
import { DoubleTextResult } from './double-text-result';
import { FlowErrorCallout } from './error-callout';
import { FlowTimeline } from './flow-timeline';

/** The single-strategy flow: live timeline while it runs, then its result or its error. */
export function DoubleTextView({ mutation }: { mutation: ReturnType<typeof useDoubleText> }) {
  const { variables, liveSteps } = mutation;
  return (
    <section className="panel" aria-labelledby="pg-result-heading">
      <h2 id="pg-result-heading">Result</h2>
      {mutation.isPending && <FlowTimeline steps={liveSteps} running />}
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
    </section>
  );
}
