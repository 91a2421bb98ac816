import { useForm } from 'react-hook-form';
import { DEFAULT_ALERT_THRESHOLDS, type LimitType } from '@contracts/usage/usage-limits';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { usePutUsageLimit } from '../api/put-usage-limit';
import {
  checkLimit,
  checkThresholds,
  formatThresholds,
  parseLimit,
  parseThresholds,
} from '../model/limit-form-values';

interface LimitEditorProps {
  workspaceId: string;
  workspaceName: string;
  limitType: LimitType;
  current: number | null;
  /** The limit's alert thresholds (percent); none yet: the defaults. */
  thresholds: readonly number[];
  onDone: () => void;
}

interface LimitValues {
  limit: string;
  thresholds: string;
}

/** The inline editor of one limit and its alert thresholds, errors in words next to each. */
export function LimitEditor({
  workspaceId,
  workspaceName,
  limitType,
  current,
  thresholds,
  onDone,
}: LimitEditorProps) {
  const save = usePutUsageLimit();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LimitValues>({
    defaultValues: {
      limit: current === null ? '' : String(current),
      thresholds: formatThresholds(thresholds.length > 0 ? thresholds : DEFAULT_ALERT_THRESHOLDS),
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const id = `limit-${workspaceId}-${limitType}`;
  const thresholdsId = `${id}-thresholds`;
  const error = errors.limit?.message ?? (save.isError ? save.error.message : undefined);
  const thresholdsError = errors.thresholds?.message;

  return (
    <form
      className="limit-editor"
      aria-label={`Limit for ${workspaceName}`}
      noValidate
      onSubmit={handleSubmit((values) =>
        save.mutate(
          {
            workspaceId,
            limitType,
            limitValue: parseLimit(values.limit),
            alertThresholds: parseThresholds(values.thresholds),
          },
          { onSuccess: onDone },
        ),
      )}
    >
      <Field
        id={id}
        label={`Traces a month for ${workspaceName}`}
        error={error}
        hint="New traces over it are refused (HTTP 429) until the month ends (UTC)."
      >
        <input
          id={id}
          inputMode="numeric"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescribedBy(id, { error, hint: true })}
          {...register('limit', { validate: checkLimit })}
        />
      </Field>
      <Field
        id={thresholdsId}
        label="Alert at (% of the limit)"
        error={thresholdsError}
        hint="Each is alerted once a month, on the tab and to the webhook; 100% always is."
      >
        <input
          id={thresholdsId}
          autoComplete="off"
          aria-invalid={thresholdsError ? true : undefined}
          aria-describedby={fieldDescribedBy(thresholdsId, { error: thresholdsError, hint: true })}
          {...register('thresholds', { validate: checkThresholds })}
        />
      </Field>
      <div className="limit-editor-actions">
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save limit'}
        </button>
        <button type="button" className="button button-secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
