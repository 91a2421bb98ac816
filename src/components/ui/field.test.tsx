import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field, fieldDescribedBy } from './field';

function NameField({ error }: { error?: string }) {
  const hint = 'As on the invoice.';
  return (
    <Field id="name" label="Company name" hint={hint} error={error}>
      <input
        id="name"
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy('name', { hint, error })}
      />
    </Field>
  );
}

describe('Field', () => {
  it('labels its control and describes it by its hint', () => {
    render(<NameField />);
    const input = screen.getByRole('textbox', { name: 'Company name' });
    expect(input).toHaveAccessibleDescription('As on the invoice.');
    expect(input).toBeValid();
  });

  it('adds the validation message to the description, error first', () => {
    render(<NameField error="Enter a name." />);
    const input = screen.getByRole('textbox', { name: 'Company name' });
    expect(input).toHaveAccessibleDescription('Enter a name. As on the invoice.');
    expect(input).toBeInvalid();
  });

  it('names no description when there is neither hint nor error', () => {
    expect(fieldDescribedBy('x', {})).toBeUndefined();
  });
});
