/** A field's validation message, tied to its input through `id` (aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="pg-field-error">
      {message}
    </p>
  );
}
