import { useState } from 'react';
import { useFlowBilling, type FlowWindow } from '@/features/playground/api/get-flow-billing';
import { usageTabLink } from '@/features/playground/model/usage-link';
import { formatCount } from '@/lib/format';

/** Traces ingested shortly after the flow's last call still belong to it. */
const DELIVERY_MARGIN_MS = 60_000;

/**
 * After a flow on the embedded deployment: how many traces its runs billed (every run the
 * deployment executed is traced with the langsmith SDK, a rolled-back one included), and a link
 * to the usage tab showing them.
 */
export function FlowBilling({
  project,
  startedAtMs,
  totalMs,
}: {
  project: string;
  startedAtMs: number;
  totalMs: number;
}) {
  const [window] = useState<FlowWindow>(() => ({
    project,
    fromMs: startedAtMs,
    toMs: startedAtMs + totalMs + DELIVERY_MARGIN_MS,
  }));
  const billing = useFlowBilling(window);

  return (
    <section className="pg-billing" aria-labelledby="pg-billing-heading">
      <h3 id="pg-billing-heading">Billed traces</h3>
      {billing.isPending && <p className="pg-muted">Reading the usage data…</p>}
      {billing.isError && (
        <p className="pg-note pg-note-danger" role="alert">
          Could not read the usage data: {billing.error.message}
        </p>
      )}
      {billing.isSuccess && (
        <p>
          This flow billed <strong>{formatCount(billing.data.traces)}</strong>{' '}
          {billing.data.traces === 1 ? 'trace' : 'traces'} in project <code>{project}</code> (one
          per run the deployment executed, rolled-back runs included).{' '}
          <a
            href={usageTabLink(
              window.fromMs,
              window.toMs,
              billing.data.workspaceIds,
              billing.data.projectId,
            )}
          >
            See them in the usage tab
          </a>
        </p>
      )}
      {billing.isSuccess && billing.data.refused > 0 && (
        <p className="pg-note pg-note-danger" role="status">
          A usage limit refused {formatCount(billing.data.refused)} of this flow&apos;s{' '}
          {billing.data.refused === 1 ? 'trace' : 'traces'} (HTTP 429): the runs themselves ran, but
          those traces were not recorded or billed. Raise the workspace&apos;s limit on the usage
          tab to record new ones.
        </p>
      )}
    </section>
  );
}
