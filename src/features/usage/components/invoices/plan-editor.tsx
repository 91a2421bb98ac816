import { useId, useState } from 'react';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { DEFAULT_PLAN_SOURCE, type Plan } from '@contracts/usage/pricing';
import { usePutPlan } from '@/features/usage/api/billing-plan';
import {
  PLAN_FIELDS,
  formFromPlan,
  planFromForm,
  type PlanFieldName,
} from '@/features/usage/model/plan-form';

/**
 * The plan and its prices, for an admin: saved on the server, so the invoices and the Granular
 * Usage estimates both use them at once.
 */
export function PlanEditor({ plan }: { plan: Plan }) {
  const id = useId();
  const save = usePutPlan();
  const [form, setForm] = useState(() => formFromPlan(plan));
  const [errors, setErrors] = useState<Partial<Record<PlanFieldName, string>>>({});
  return (
    <form
      className="panel plan-editor"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const result = planFromForm(form, plan);
        if ('errors' in result) {
          setErrors(result.errors);
          return;
        }
        setErrors({});
        save.mutate(result.plan);
      }}
    >
      <h3 id={`${id}-title`}>Plan and prices</h3>
      <p className="muted">
        Defaults: LangSmith’s published {plan.name} prices, read on {DEFAULT_PLAN_SOURCE.read_on}{' '}
        from its pricing and billing pages. Your contract may differ.
      </p>
      <div className="plan-fields">
        {PLAN_FIELDS.map((field) => {
          const fieldId = `${id}-${field.name}`;
          return (
            <Field key={field.name} id={fieldId} label={field.label} error={errors[field.name]}>
              <input
                id={fieldId}
                inputMode="decimal"
                value={form[field.name]}
                aria-invalid={errors[field.name] !== undefined}
                aria-describedby={fieldDescribedBy(fieldId, { error: errors[field.name] })}
                onChange={(event) => setForm({ ...form, [field.name]: event.target.value })}
              />
            </Field>
          );
        })}
      </div>
      <div className="plan-actions">
        <button type="submit" className="button" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save plan'}
        </button>
        <p role="status" className="muted">
          {save.isSuccess ? 'Saved. Invoices and Granular Usage estimates use these prices.' : ''}
        </p>
        {save.isError ? (
          <p role="alert" className="field-error">
            Not saved: {save.error.message}
          </p>
        ) : null}
      </div>
    </form>
  );
}
