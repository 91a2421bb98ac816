import { useEffect, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { MultitaskStrategy } from '@contracts/deployment';
import type {
  PlaygroundFormInput,
  PlaygroundFormValues,
} from '@/features/playground/model/playground-form';
import { STRATEGY_DESCRIPTIONS } from '@/features/playground/model/strategy-descriptions';
import { DeploymentFields } from './deployment-fields';
import { FieldError } from './field-error';

const STRATEGIES: MultitaskStrategy[] = ['rollback', 'interrupt', 'reject', 'enqueue'];

interface PlaygroundFormProps {
  busy: boolean;
  onRun: (values: PlaygroundFormValues) => void;
  onCompare: (values: PlaygroundFormValues) => void;
  onCancel: () => void;
}

/** The double-text to send: two messages, the delay between them, the strategy and where to. */
export function PlaygroundForm({ busy, onRun, onCompare, onCancel }: PlaygroundFormProps) {
  const { register, control, handleSubmit, formState } = useFormContext<
    PlaygroundFormInput,
    unknown,
    PlaygroundFormValues
  >();
  const strategy = useWatch({ control, name: 'strategy' });
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
  const describedBy = (field: keyof PlaygroundFormInput, hint?: string) =>
    [errors[field] ? `pg-${field}-error` : null, hint].filter(Boolean).join(' ') || undefined;

  return (
    <form className="pg-form" noValidate onSubmit={handleSubmit(onRun)}>
      <fieldset className="pg-fieldset" disabled={busy}>
        <legend>Double-text</legend>
        <div className="pg-grid-2">
          <div className="pg-field">
            <label htmlFor="pg-first">First message</label>
            <input
              id="pg-first"
              aria-invalid={errors.first ? true : undefined}
              aria-describedby={describedBy('first')}
              {...register('first')}
            />
            <FieldError id="pg-first-error" message={errors.first?.message} />
          </div>
          <div className="pg-field">
            <label htmlFor="pg-second">Second message</label>
            <input
              id="pg-second"
              aria-invalid={errors.second ? true : undefined}
              aria-describedby={describedBy('second')}
              {...register('second')}
            />
            <FieldError id="pg-second-error" message={errors.second?.message} />
          </div>
          <div className="pg-field">
            <label htmlFor="pg-delay">Delay before second message</label>
            <input
              id="pg-delay"
              type="number"
              inputMode="decimal"
              min={0}
              max={60}
              step={0.1}
              aria-invalid={errors.delaySeconds ? true : undefined}
              aria-describedby={describedBy('delaySeconds', 'pg-delay-hint')}
              {...register('delaySeconds', { valueAsNumber: true })}
            />
            <p id="pg-delay-hint" className="pg-hint">
              In seconds; 0 sends both at once.
            </p>
            <FieldError id="pg-delaySeconds-error" message={errors.delaySeconds?.message} />
          </div>
          <div className="pg-field">
            <label htmlFor="pg-strategy">Strategy</label>
            <select id="pg-strategy" aria-describedby="pg-strategy-hint" {...register('strategy')}>
              {STRATEGIES.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
            <p id="pg-strategy-hint" className="pg-hint">
              {STRATEGY_DESCRIPTIONS[strategy]}
            </p>
          </div>
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
      </div>
    </form>
  );
}
