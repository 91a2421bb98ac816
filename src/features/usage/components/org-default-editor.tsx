import { useForm } from 'react-hook-form';
import type { LimitType } from '@contracts/usage/usage-limits';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { usePutOrgDefaultLimit } from '../api/org-default-limits';
import { checkLimit, parseLimit } from '../model/limit-form-values';
import { LIMIT_TYPE_NAMES } from '../model/limit-type-names';

interface DefaultValues {
  limitType: LimitType;
  limit: string;
  applyToExisting: boolean;
}

/** Sets the org default limit (and, with the box ticked, gives it to existing workspaces). */
export function OrgDefaultEditor() {
  const save = usePutOrgDefaultLimit();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<DefaultValues>({
    defaultValues: { limitType: 'monthly_traces', limit: '', applyToExisting: false },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const error = errors.limit?.message ?? (save.isError ? save.error.message : undefined);

  return (
    <form
      className="limit-editor"
      aria-label="Org default limit"
      noValidate
      onSubmit={handleSubmit((values) =>
        save.mutate(
          {
            limitType: values.limitType,
            limitValue: parseLimit(values.limit),
            applyToExisting: values.applyToExisting,
          },
          { onSuccess: () => reset({ ...values, limit: '', applyToExisting: false }) },
        ),
      )}
    >
      <Field id="org-default-type" label="Limit type">
        <select id="org-default-type" {...register('limitType')}>
          {Object.entries(LIMIT_TYPE_NAMES).map(([type, name]) => (
            <option key={type} value={type}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id="org-default-limit"
        label="Default traces a month"
        error={error}
        hint="Workspaces created from now on get it."
      >
        <input
          id="org-default-limit"
          inputMode="numeric"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescribedBy('org-default-limit', { error, hint: true })}
          {...register('limit', { validate: checkLimit })}
        />
      </Field>
      <label className="checkbox-field">
        <input type="checkbox" {...register('applyToExisting')} />
        Also give it now to existing workspaces without their own limit of this type
      </label>
      <div className="limit-editor-actions">
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save org default'}
        </button>
      </div>
    </form>
  );
}
