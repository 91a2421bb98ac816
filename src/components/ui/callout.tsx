import './ui.css';
import type { ReactNode } from 'react';

interface CalloutProps {
  title: ReactNode;
  /** `danger` for a failure; `neutral` for news that is not one (a cancelled flow). */
  tone?: 'danger' | 'neutral';
  /** Secondary advice under the message. */
  hint?: ReactNode;
  children?: ReactNode;
}

/** A message that needs the reader's attention now, announced to screen readers. */
export function Callout({ title, tone = 'danger', hint, children }: CalloutProps) {
  return (
    <div className={`callout callout-${tone}`} role="alert">
      <p className="callout-title">{title}</p>
      {children}
      {hint ? <p className="callout-hint">{hint}</p> : null}
    </div>
  );
}
