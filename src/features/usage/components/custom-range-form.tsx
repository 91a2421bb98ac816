import { zodResolver } from '@hookform/resolvers/zod';
import type { ComponentPropsWithRef } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { describeRangeLength, parseUtcDate } from '../model/time-range';

const utcDate = z.string().check(
  z.minLength(1, 'Enter a date.'),
  z.refine((value) => parseUtcDate(value) !== undefined, 'Enter a valid date (YYYY-MM-DD).'),
);

const customRangeSchema = z.object({ from: utcDate, to: utcDate }).check(
  z.refine(({ from, to }) => (parseUtcDate(to) ?? 0) >= (parseUtcDate(from) ?? 0), {
    path: ['to'],
    message: 'End date must be on or after the start date.',
  }),
  z.superRefine(({ from, to }, context) => {
    const start = parseUtcDate(from);
    const lastDay = parseUtcDate(to);
    const tooLong = start !== undefined && lastDay !== undefined && lastDay >= start;
    const message = tooLong ? describeRangeLength(start, lastDay) : null;
    if (message) context.issues.push({ code: 'custom', path: ['to'], message, input: to });
  }),
);

type CustomRangeValues = z.infer<typeof customRangeSchema>;

interface CustomRangeFormProps {
  from: string | null;
  to: string | null;
  onApply: (from: string, to: string) => void;
}

/** Whole UTC days, both inclusive. Nothing is fetched until the range is valid. */
export function CustomRangeForm({ from, to, onApply }: CustomRangeFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CustomRangeValues>({
    resolver: zodResolver(customRangeSchema),
    defaultValues: { from: from ?? '', to: to ?? '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  return (
    <form
      className="custom-range"
      aria-label="Custom range"
      noValidate
      onSubmit={handleSubmit((values) => onApply(values.from, values.to))}
    >
      <DateField
        id="custom-from"
        label="Start date"
        error={errors.from?.message}
        {...register('from')}
      />
      <DateField id="custom-to" label="End date" error={errors.to?.message} {...register('to')} />
      <button type="submit" className="button">
        Apply range
      </button>
      <span className="muted small">Whole days in UTC, both dates included.</span>
    </form>
  );
}

type DateFieldProps = ComponentPropsWithRef<'input'> & {
  id: string;
  label: string;
  error?: string;
};

/** A labelled date input whose error sits next to it and is announced with it. */
function DateField({ id, label, error, ...input }: DateFieldProps) {
  return (
    <Field id={id} label={label} error={error}>
      <input
        id={id}
        type="date"
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, { error })}
        {...input}
      />
    </Field>
  );
}
