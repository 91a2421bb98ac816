import type { ErrorDescription } from '@/features/playground/model/describe-error';

/** A failure in plain words, with what to do about it. */
export function ErrorCallout({
  description,
  tone = 'danger',
}: {
  description: ErrorDescription;
  tone?: 'danger' | 'neutral';
}) {
  return (
    <div className={`pg-callout pg-callout-${tone}`} role="alert">
      <p className="pg-callout-title">{description.title}</p>
      <p>{description.message}</p>
      {description.hint && <p className="pg-callout-hint">{description.hint}</p>}
    </div>
  );
}
