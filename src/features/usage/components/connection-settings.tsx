import { useEffect, useId, useRef, type FormEvent } from 'react';
import { Field } from '@/components/ui/field';
import type { useToggle } from '@/components/ui/use-toggle';
import { useConsoleConfig } from '@/lib/console-config';
import { useUsageConnection } from '../api/usage-connection';

/**
 * Which usage API the tab reads and with which key. The default is the console server's own
 * connection (embedded demo data, or the LangSmith configured on the server with its key).
 */
export function ConnectionSettings({ toggle }: { toggle: ReturnType<typeof useToggle> }) {
  const { connection, setConnection } = useUsageConnection();
  const config = useConsoleConfig();
  const { open, setOpen, panelId, buttonProps } = toggle;
  const id = useId();
  const keyRef = useRef<HTMLInputElement>(null);
  // Opened from an error panel ("Change API key"): the key field is where the user goes next.
  useEffect(() => {
    if (open) keyRef.current?.focus();
  }, [open]);

  const serverSource =
    config.data?.usage.source === 'langsmith'
      ? `LangSmith (${config.data.usage.upstream ?? ''})`
      : config.data?.usage.seed === 'none'
        ? 'embedded data'
        : 'embedded demo data';
  const summary = connection.baseUrl
    ? `${connection.baseUrl}${connection.apiKey ? ' with your key' : ''}`
    : connection.apiKey
      ? `${serverSource}, your key`
      : `${serverSource}, server key`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const baseUrl = String(data.get('baseUrl') ?? '').trim();
    const apiKey = String(data.get('apiKey') ?? '').trim();
    setConnection({ baseUrl: baseUrl || null, apiKey: apiKey || null });
    setOpen(false);
  };

  return (
    <div className="connection">
      <button type="button" className="button button-secondary" {...buttonProps}>
        Connection: {summary}
      </button>
      {open ? (
        <form
          id={panelId}
          className="popover connection-form"
          aria-label="Connection"
          onSubmit={submit}
        >
          <Field id={`${id}-key`} label="API key">
            <input
              id={`${id}-key`}
              ref={keyRef}
              name="apiKey"
              type="password"
              autoComplete="off"
              defaultValue={connection.apiKey ?? ''}
              placeholder="Server's key (leave empty)"
            />
          </Field>
          <Field id={`${id}-base-url`} label="Base URL">
            <input
              id={`${id}-base-url`}
              name="baseUrl"
              type="url"
              defaultValue={connection.baseUrl ?? ''}
              placeholder="This console's server (leave empty)"
            />
          </Field>
          <p className="muted small">
            Demo keys: <code>lsv2_demo_admin</code>, <code>lsv2_demo_limited</code> (2 workspaces),{' '}
            <code>lsv2_demo_noperm</code>. A key typed here stays in this browser tab.
          </p>
          <div className="row">
            <button type="submit" className="button">
              Save connection
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                setConnection({ baseUrl: null, apiKey: null });
                setOpen(false);
              }}
            >
              Use server connection
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
