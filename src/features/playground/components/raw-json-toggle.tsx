import { useToggle } from '@/components/ui/use-toggle';

/** A disclosure with the raw JSON the deployment returned. */
export function RawJsonToggle({ label, value }: { label: string; value: unknown }) {
  const { open, panelId, buttonProps } = useToggle();
  return (
    <div className="raw-json">
      <button type="button" className="button button-secondary" {...buttonProps}>
        {open ? `Hide ${label}` : `Show ${label}`}
      </button>
      {/* Wrapped, never scrolled: the whole state stays readable without a scroll region. */}
      <pre id={panelId} className="raw-json-body" hidden={!open}>
        {open ? JSON.stringify(value, null, 2) : null}
      </pre>
    </div>
  );
}
