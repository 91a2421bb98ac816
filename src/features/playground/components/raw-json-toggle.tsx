import { useId, useState } from 'react';

/** A disclosure with the raw JSON the deployment returned. */
export function RawJsonToggle({ label, value }: { label: string; value: unknown }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="raw-json">
      <button
        type="button"
        className="button button-secondary"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((isOpen) => !isOpen)}
      >
        {open ? `Hide ${label}` : `Show ${label}`}
      </button>
      {/* Wrapped, never scrolled: the whole state stays readable without a scroll region. */}
      <pre id={id} className="raw-json-body" hidden={!open}>
        {open ? JSON.stringify(value, null, 2) : null}
      </pre>
    </div>
  );
}
