import { useFormContext, useWatch } from 'react-hook-form';
import { useConsoleConfig } from '@/lib/console-config';
import type {
  PlaygroundFormInput,
  PlaygroundFormValues,
} from '@/features/playground/model/playground-form';
import { Field, fieldDescribedBy } from '@/components/ui/field';

function EmbeddedTarget() {
  const config = useConsoleConfig();
  if (config.isPending) return <span className="pg-muted">Checking what it reaches…</span>;
  if (config.isError)
    return <span className="pg-muted">Could not read the server&apos;s setting.</span>;
  const { source, upstream } = config.data.deployment;
  return source === 'remote' ? (
    <span className="pg-muted">
      Reaches <code>{upstream}</code>, configured on the server (its key stays there).
    </span>
  ) : (
    <span className="pg-muted">Reaches the embedded demo deployment of this server.</span>
  );
}

/** Embedded (through the console server) or a deployment URL called from the browser. */
export function DeploymentFields({ disabled }: { disabled: boolean }) {
  const { register, control, formState } = useFormContext<
    PlaygroundFormInput,
    unknown,
    PlaygroundFormValues
  >();
  const deployment = useWatch({ control, name: 'deployment' });
  const { errors } = formState;

  return (
    <fieldset className="pg-fieldset" disabled={disabled}>
      <legend>Deployment</legend>
      <div className="pg-radio">
        <input
          id="pg-deployment-embedded"
          type="radio"
          value="embedded"
          aria-describedby="pg-deployment-embedded-hint"
          {...register('deployment')}
        />
        <label htmlFor="pg-deployment-embedded">Embedded</label>
        <span id="pg-deployment-embedded-hint" className="pg-radio-hint">
          <EmbeddedTarget />
        </span>
      </div>
      <div className="pg-radio">
        <input
          id="pg-deployment-url"
          type="radio"
          value="url"
          aria-describedby="pg-deployment-url-hint"
          {...register('deployment')}
        />
        <label htmlFor="pg-deployment-url">By URL</label>
        <span id="pg-deployment-url-hint" className="pg-radio-hint pg-muted">
          Called straight from this browser, so the deployment must allow this page (CORS).
        </span>
      </div>
      {deployment === 'url' && (
        <div className="pg-grid-2">
          <Field id="pg-url" label="Deployment URL" error={errors.url?.message}>
            <input
              id="pg-url"
              type="url"
              placeholder="https://my-deployment.us.langgraph.app"
              aria-invalid={errors.url ? true : undefined}
              aria-describedby={fieldDescribedBy('pg-url', { error: errors.url?.message })}
              {...register('url')}
            />
          </Field>
          <Field
            id="pg-api-key"
            label="API key (optional)"
            hint="Sent as x-api-key; kept in this page only."
          >
            <input
              id="pg-api-key"
              type="password"
              autoComplete="off"
              aria-describedby={fieldDescribedBy('pg-api-key', { hint: true })}
              {...register('apiKey')}
            />
          </Field>
        </div>
      )}
      <Field
        id="pg-assistant"
        label="Assistant id"
        hint="Assistant id or graph name."
        error={errors.assistantId?.message}
        className="pg-field-narrow"
      >
        <input
          id="pg-assistant"
          aria-invalid={errors.assistantId ? true : undefined}
          aria-describedby={fieldDescribedBy('pg-assistant', {
            hint: true,
            error: errors.assistantId?.message,
          })}
          {...register('assistantId')}
        />
      </Field>
    </fieldset>
  );
}
