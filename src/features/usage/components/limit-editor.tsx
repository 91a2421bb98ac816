import { useForm } from 'react-hook-form';
import { MAX_LIMIT_VALUE, type LimitType } from '@contracts/usage/usage-limits';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { formatCount } from '@/lib/format';
import { usePutUsageLimit } from '../api/put-usage-limit';

interface LimitEditorProps {
  workspaceId: string;
  workspaceName: string;
  limitType: LimitType;
  current: number | null;
  onDone: () => void;
}

interface LimitValues {
  limit: string;
}

/** Digits with optional thousands separators (`50000`, `50,000`, `50 000`, `50_000`). */
const parseLimit = (text: string) => Number(text.trim().replace(/[,\s_]/g, ''));

/** The inline editor of one limit: a whole number of traces, errors in words next to it. */
export function LimitEditor({
  workspaceId,
  workspaceName,
  limitType,
  current,
  onDone,
}: LimitEditorProps) {
  const save = usePutUsageLimit();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LimitValues>({
    defaultValues: { limit: current === null ? '' : String(current) },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const id = `limit-${workspaceId}-${limitType}`;
  const error = errors.limit?.message ?? (save.isError ? save.error.message : undefined);

  return (
    <form
      className="limit-editor"
      aria-label={`Limit for ${workspaceName}`}
      noValidate
      onSubmit={handleSubmit((values) =>
        save.mutate(
          { workspaceId, limitType, limitValue: parseLimit(values.limit) },
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
          {...register('limit', {
            validate: (text) => {
              if (text.trim() === '') return 'Enter the number of traces a month, like 50,000.';
              if (!/^\d[\d,\s_]*$/.test(text.trim())) {
                return 'Use a whole number of traces, without decimals or a minus sign.';
              }
              if (parseLimit(text) > MAX_LIMIT_VALUE) {
                return `That is more than the largest limit, ${formatCount(MAX_LIMIT_VALUE)}.`;
              }
              return true;
            },
          })}
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
