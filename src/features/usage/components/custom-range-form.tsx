import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { parseUtcDate } from '../model/time-range';

const utcDate = z
  .string()
  .min(1, 'Enter a date.')
  .refine((value) => parseUtcDate(value) !== undefined, 'Enter a valid date (YYYY-MM-DD).');

const customRangeSchema = z
  .object({ from: utcDate, to: utcDate })
  .refine(({ from, to }) => (parseUtcDate(to) ?? 0) >= (parseUtcDate(from) ?? 0), {
    path: ['to'],
    message: 'End date must be on or after the start date.',
  });

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
      <div className="field">
        <label className="field-label" htmlFor="custom-from">
          Start date
        </label>
        <input
          id="custom-from"
          type="date"
          aria-invalid={errors.from ? true : undefined}
          aria-describedby={errors.from ? 'custom-from-error' : undefined}
          {...register('from')}
        />
        {errors.from ? (
          <span id="custom-from-error" className="field-error">
            {errors.from.message}
          </span>
        ) : null}
      </div>
      <div className="field">
        <label className="field-label" htmlFor="custom-to">
          End date
        </label>
        <input
          id="custom-to"
          type="date"
          aria-invalid={errors.to ? true : undefined}
          aria-describedby={errors.to ? 'custom-to-error' : undefined}
          {...register('to')}
        />
        {errors.to ? (
          <span id="custom-to-error" className="field-error">
            {errors.to.message}
          </span>
        ) : null}
      </div>
      <button type="submit" className="button">
        Apply range
      </button>
      <span className="muted small">Whole days in UTC, both dates included.</span>
    </form>
  );
}
