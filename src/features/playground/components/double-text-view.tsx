import type { useDoubleText } from '@/features/playground/api/use-double-text';
import { describeError } from '@/features/playground/model/describe-error';
import { FlowCancelledError } from '@/features/playground/model/flow-error';
import { DoubleTextResult } from './double-text-result';
import { ErrorCallout } from './error-callout';
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
          <ErrorCallout
            tone={mutation.error instanceof FlowCancelledError ? 'neutral' : 'danger'}
            description={describeError(mutation.error, {
              connection: variables.connection,
              assistantId: variables.assistantId,
              origin: window.location.origin,
            })}
          />
          {liveSteps.length > 0 && <FlowTimeline steps={liveSteps} />}
        </>
      )}
      {mutation.isSuccess && <DoubleTextResult outcome={mutation.data} />}
    </section>
  );
}
