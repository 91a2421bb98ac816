import { useForm } from 'react-hook-form';
import type { LimitType, OrgDefaultLimit } from '@contracts/usage/usage-limits';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { formatCount } from '@/lib/format';
import { useOrgDefaultLimits, usePutOrgDefaultLimit } from '../api/org-default-limits';
import { checkLimit, parseLimit } from '../model/limit-form-values';

const TYPE_NAMES: Record<LimitType, string> = {
  monthly_traces: 'All traces',
  monthly_longlived_traces: 'Extended-retention traces',
};

interface DefaultValues {
  limitType: LimitType;
  limit: string;
  applyToExisting: boolean;
}

const describeDefault = (entry: OrgDefaultLimit) =>
  `${TYPE_NAMES[entry.limit_type]}: ${formatCount(entry.limit_value)} traces a month`;

/**
 * The org default limit: what new workspaces get, and with the box ticked, every workspace
 * without its own limit of that type now. Editable only by keys allowed to change limits.
 */
export function OrgDefaultLimits({ canEdit }: { canEdit: boolean }) {
  const defaults = useOrgDefaultLimits();
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
  const list = defaults.data ?? [];

  return (
    <section className="org-default" aria-labelledby="org-default-heading">
      <h4 id="org-default-heading">Org default limit</h4>
      {defaults.isError ? (
        <p className="muted small">The org default is not available: {defaults.error.message}</p>
      ) : list.length === 0 ? (
        <p className="muted small">No org default: new workspaces start without a limit.</p>
      ) : (
        <ul className="muted small">
          {list.map((entry) => (
            <li key={entry.limit_type}>{describeDefault(entry)}, for workspaces created since.</li>
          ))}
        </ul>
      )}
      {canEdit ? (
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
              {Object.entries(TYPE_NAMES).map(([type, name]) => (
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
      ) : null}
    </section>
  );
}
