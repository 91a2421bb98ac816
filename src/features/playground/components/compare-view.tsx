import { Spinner } from '@/components/ui/spinner';
import type { useCompareStrategies } from '@/features/playground/api/use-compare-strategies';
import { CompareResults } from './compare-results';
import { FlowErrorCallout } from './error-callout';

/** The four strategies run side by side. */
export function CompareView({ mutation }: { mutation: ReturnType<typeof useCompareStrategies> }) {
  const { variables } = mutation;
  return (
    <section className="panel" aria-labelledby="pg-compare-heading">
      <h2 id="pg-compare-heading">Compare strategies</h2>
      <p className="pg-muted">
        The same two messages on four fresh threads at once, one strategy each.
      </p>
      {mutation.isPending && (
        <p className="pg-running">
          <Spinner /> Running the four strategies…
        </p>
      )}
      {mutation.isError && variables && (
        <FlowErrorCallout
          error={mutation.error}
          connection={variables.connection}
          assistantId={variables.assistantId}
        />
      )}
      {mutation.isSuccess && variables && (
        <CompareResults
          results={mutation.data}
          connection={variables.connection}
          assistantId={variables.assistantId}
        />
      )}
    </section>
  );
}
