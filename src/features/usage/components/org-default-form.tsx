import { lazy, Suspense, useState } from 'react';
import type { OrgDefaultLimit } from '@contracts/usage/usage-limits';
import { formatCount } from '@/lib/format';
import { useOrgDefaultLimits } from '../api/org-default-limits';
import { LIMIT_TYPE_NAMES } from '../model/limit-type-names';

// The form (react-hook-form) only for keys that may change limits: its own chunk, out of the
// usage tab's first load.
const OrgDefaultEditor = lazy(() =>
  import('./org-default-editor').then((module) => ({ default: module.OrgDefaultEditor })),
);

const describeDefault = (entry: OrgDefaultLimit) =>
  `${LIMIT_TYPE_NAMES[entry.limit_type]}: ${formatCount(entry.limit_value)} traces a month`;

/**
 * The org default limit: what new workspaces get, and with the box ticked, every workspace
 * without its own limit of that type now. Editable only by keys allowed to change limits.
 */
export function OrgDefaultLimits({ canEdit }: { canEdit: boolean }) {
  const defaults = useOrgDefaultLimits();
  const [editing, setEditing] = useState(false);
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
      {canEdit && editing ? (
        <Suspense fallback={<p className="muted small">Loading the form…</p>}>
          <OrgDefaultEditor />
        </Suspense>
      ) : canEdit ? (
        <button type="button" className="button button-secondary" onClick={() => setEditing(true)}>
          Set the org default
        </button>
      ) : null}
    </section>
  );
}
