import './ui.css';
import type { ReactNode } from 'react';

interface FieldProps {
  /** The id of the control inside: the label points at it. */
  id: string;
  label: ReactNode;
  /** A standing hint under the control, shown as `${id}-hint`. */
  hint?: ReactNode;
  /** The validation message, shown as `${id}-error`; nothing when undefined. */
  error?: string | undefined;
  className?: string;
  children: ReactNode;
}

/**
 * The ids a field's control names in `aria-describedby`: its hint and its error, when they are
 * shown. Spread on the control: `aria-describedby={fieldDescribedBy(id, { hint, error })}`.
 */
export function fieldDescribedBy(
  id: string,
  { hint, error }: { hint?: unknown; error?: string | undefined },
): string | undefined {
  const ids = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** A validation message tied to its control by id (the control's `aria-describedby`). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  );
}

/** A labelled control with its hint and validation message, laid out the same everywhere. */
export function Field({ id, label, hint, error, className, children }: FieldProps) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
