import { useEffect, useRef, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { MultitaskStrategy } from '@contracts/deployment';
import type {
  PlaygroundFormInput,
  PlaygroundFormValues,
} from '@/features/playground/model/playground-form';
import {
  SERVER_DEFAULT_STRATEGY,
  STRATEGY_DESCRIPTIONS,
} from '@/features/playground/model/strategy-descriptions';
import { DeploymentFields } from './deployment-fields';
import { Field, fieldDescribedBy } from '@/components/ui/field';

const STRATEGIES: MultitaskStrategy[] = ['rollback', 'interrupt', 'reject', 'enqueue'];
const DELAY_HINT = 'In seconds, counted from that moment; 0 sends it at once.';
const SEND_AFTER_HINT = {
  'tool-call': 'Run 1 is then provably running: its tool and a model step are still to come.',
  'first-message': 'For a graph that calls no tool. With a fast model, add a short delay at most.',
} as const;

interface PlaygroundFormProps {
  busy: boolean;
  onRun: (values: PlaygroundFormValues) => void;
  onCompare: (values: PlaygroundFormValues) => void;
  onCancel: () => void;
  /** Beside the run buttons, at the row's end (Copy as SDK code). */
  extraActions?: ReactNode;
}

/** The double-text to send: two messages, the delay between them, the strategy and where to. */
export function PlaygroundForm({
  busy,
  onRun,
  onCompare,
  onCancel,
  extraActions,
}: PlaygroundFormProps) {
  const { register, control, handleSubmit, formState } = useFormContext<
    PlaygroundFormInput,
    unknown,
    PlaygroundFormValues
  >();
  const strategy = useWatch({ control, name: 'strategy' });
  const sendAfter = useWatch({ control, name: 'sendAfter' });
  const runRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const wasBusy = useRef(busy);
  // The focused button turns disabled when a flow starts or ends: keep keyboard focus on the
  // button that can act now (Cancel while running, Run double-text after).
  useEffect(() => {
    if (busy === wasBusy.current) return;
    wasBusy.current = busy;
    const active = document.activeElement;
    if (busy) {
      if (active === runRef.current || active?.closest('.pg-actions')) cancelRef.current?.focus();
    } else if (active === cancelRef.current || active === document.body) {
      runRef.current?.focus();
    }
  }, [busy]);
  const { errors } = formState;

  return (
    <form className="pg-form" noValidate onSubmit={handleSubmit(onRun)}>
      <fieldset className="pg-fieldset" disabled={busy}>
        <legend>Double-text</legend>
        <div className="pg-grid-2">
          <Field id="pg-first" label="First message" error={errors.first?.message}>
            <input
              id="pg-first"
              aria-invalid={errors.first ? true : undefined}
              aria-describedby={fieldDescribedBy('pg-first', { error: errors.first?.message })}
              {...register('first')}
            />
          </Field>
          <Field id="pg-second" label="Second message" error={errors.second?.message}>
            <input
              id="pg-second"
              aria-invalid={errors.second ? true : undefined}
              aria-describedby={fieldDescribedBy('pg-second', { error: errors.second?.message })}
              {...register('second')}
            />
          </Field>
          <Field
            id="pg-send-after"
            label="Send the second message"
            hint={SEND_AFTER_HINT[sendAfter]}
          >
            <select
              id="pg-send-after"
              aria-describedby={fieldDescribedBy('pg-send-after', { hint: true })}
              {...register('sendAfter')}
            >
              <option value="tool-call">when run 1 streams its first tool call</option>
              <option value="first-message">when run 1 streams its first message</option>
            </select>
          </Field>
          <Field
            id="pg-delay"
            label="Delay before second message"
            hint={DELAY_HINT}
            error={errors.delaySeconds?.message}
          >
            <input
              id="pg-delay"
              type="number"
              inputMode="decimal"
              min={0}
              max={60}
              step={0.1}
              aria-invalid={errors.delaySeconds ? true : undefined}
              aria-describedby={fieldDescribedBy('pg-delay', {
                hint: DELAY_HINT,
                error: errors.delaySeconds?.message,
              })}
              {...register('delaySeconds', { valueAsNumber: true })}
            />
          </Field>
          <Field id="pg-strategy" label="Strategy" hint={STRATEGY_DESCRIPTIONS[strategy]}>
            <select
              id="pg-strategy"
              aria-describedby={fieldDescribedBy('pg-strategy', { hint: true })}
              {...register('strategy')}
            >
              {STRATEGIES.map((value) => (
                <option key={value} value={value}>
                  {value === SERVER_DEFAULT_STRATEGY ? `${value} (server default)` : value}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </fieldset>
      <DeploymentFields disabled={busy} />
      <div className="row pg-actions">
        <button ref={runRef} type="submit" className="button" disabled={busy}>
          Run double-text
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={handleSubmit(onCompare)}
        >
          Compare strategies
        </button>
        <button
          ref={cancelRef}
          type="button"
          className="button button-secondary"
          disabled={!busy}
          onClick={onCancel}
        >
          Cancel
        </button>
        {extraActions}
      </div>
    </form>
  );
}
