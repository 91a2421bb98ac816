import { useEffect, useId, useRef, type FormEvent } from 'react';
import { Field } from '@/components/ui/field';
import { useUsageConnection } from '../api/usage-connection';

interface ConnectionFormProps {
  panelId: string;
  onDone: () => void;
}

/** The connection popover's form: its own chunk, loaded when the popover first opens. */
export function ConnectionForm({ panelId, onDone }: ConnectionFormProps) {
  const { connection, setConnection } = useUsageConnection();
  const id = useId();
  const keyRef = useRef<HTMLInputElement>(null);
  // Opened from an error panel ("Change API key"): the key field is where the user goes next.
  useEffect(() => {
    keyRef.current?.focus();
  }, []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const baseUrl = String(data.get('baseUrl') ?? '').trim();
    const apiKey = String(data.get('apiKey') ?? '').trim();
    setConnection({ baseUrl: baseUrl || null, apiKey: apiKey || null });
    onDone();
  };

  return (
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
            onDone();
          }}
        >
          Use server connection
        </button>
      </div>
    </form>
  );
}
