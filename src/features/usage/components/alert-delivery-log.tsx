import { lazy, Suspense, useState } from 'react';

// Its table, query and schema load when the log is first opened, not with the tab.
const AlertDeliveryEntries = lazy(() =>
  import('./alert-delivery-entries').then((module) => ({ default: module.AlertDeliveryEntries })),
);

/** The webhook's delivery log, read when opened. */
export function AlertDeliveryLog({ names }: { names: ReadonlyMap<string, string> }) {
  const [opened, setOpened] = useState(false);
  return (
    <details
      className="limit-log"
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary>Alert webhook deliveries</summary>
      {opened ? (
        <Suspense fallback={<p className="muted small">Reading the log…</p>}>
          <AlertDeliveryEntries names={names} />
        </Suspense>
      ) : null}
    </details>
  );
}
