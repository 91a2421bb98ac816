import { useState } from 'react';
import { formatCount } from '@/lib/format';
import { useDeleteUsageLimit } from '../api/delete-usage-limit';

interface RemoveLimitProps {
  limitId: string;
  workspaceName: string;
  limitValue: number;
}

/** Removes a workspace's own limit after a second, explicit click (an org default may follow). */
export function RemoveLimit({ limitId, workspaceName, limitValue }: RemoveLimitProps) {
  const [asking, setAsking] = useState(false);
  const remove = useDeleteUsageLimit();
  if (!asking) {
    return (
      <button
        type="button"
        className="button button-secondary button-small"
        aria-label={`Remove the limit for ${workspaceName}`}
        onClick={() => setAsking(true)}
      >
        Remove
      </button>
    );
  }
  return (
    <div role="group" aria-label={`Remove the limit for ${workspaceName}`} className="limit-remove">
      <p className="small">
        Remove the limit of {formatCount(limitValue)} traces for {workspaceName}? New traces are
        then billed without it (or under the org default, if one applies).
      </p>
      {remove.isError ? (
        <p className="field-error" role="alert">
          The limit was not removed: {remove.error.message}
        </p>
      ) : null}
      <div className="limit-editor-actions">
        <button
          type="button"
          className="button"
          disabled={remove.isPending}
          onClick={() => remove.mutate(limitId, { onSuccess: () => setAsking(false) })}
        >
          {remove.isPending ? 'Removing…' : 'Remove limit'}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setAsking(false)}>
          Keep it
        </button>
      </div>
    </div>
  );
}
