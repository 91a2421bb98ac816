import { lazy, Suspense } from 'react';
import type { useToggle } from '@/components/ui/use-toggle';
import { useConsoleConfig } from '@/lib/console-config';
import { describeUsageSource } from '@/lib/usage-source';
import { useUsageConnection } from '../api/usage-connection';

// The form is not needed for the first paint: its own chunk, loaded when the popover opens.
const ConnectionForm = lazy(() =>
  import('./connection-form').then((module) => ({ default: module.ConnectionForm })),
);

/**
 * Which usage API the tab reads and with which key. The default is the console server's own
 * connection (embedded demo data, or the LangSmith configured on the server with its key).
 */
export function ConnectionSettings({ toggle }: { toggle: ReturnType<typeof useToggle> }) {
  const { connection } = useUsageConnection();
  const config = useConsoleConfig();
  const { open, setOpen, panelId, buttonProps } = toggle;

  const serverSource = config.data ? describeUsageSource(config.data) : 'the console server';
  const summary = connection.baseUrl
    ? `${connection.baseUrl}${connection.apiKey ? ' with your key' : ''}`
    : connection.apiKey
      ? `${serverSource}, your key`
      : `${serverSource}, server key`;

  return (
    <div className="connection">
      <button type="button" className="button button-secondary" {...buttonProps}>
        Connection: {summary}
      </button>
      {open ? (
        <Suspense fallback={<p className="popover muted small">Loading…</p>}>
          <ConnectionForm panelId={panelId} onDone={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
