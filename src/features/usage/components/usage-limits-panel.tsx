import { isWorkspaceLimitStatus } from '@contracts/usage/usage-limits';
import type { Workspace } from '@contracts/usage/usage-schema';
import { useRoleMay } from '@/lib/console-session';
import { formatUtc } from '@/lib/format-utc';
import { useLimitStatus } from '../api/get-limit-status';
import { AlertDeliveryLog } from './alert-delivery-log';
import { LimitRow } from './limit-row';
import { OrgDefaultLimits } from './org-default-form';
import { ScopedLimitsCard } from './scoped-limits-card';

interface UsageLimitsPanelProps {
  workspaceIds: readonly string[];
  workspaces: readonly Workspace[];
  nowMs: number;
}

/**
 * Month-to-date use against each selected workspace's limits (UTC calendar month), with the
 * date the limit is reached at the current pace, alert notices and, for keys allowed to, an
 * inline editor. Extended-retention limits show only where one is set.
 */
export function UsageLimitsPanel({ workspaceIds, workspaces, nowMs }: UsageLimitsPanelProps) {
  const status = useLimitStatus();
  // The console's role table has the last word: a viewer gets no editor whatever the key allows.
  const mayChangeLimits = useRoleMay('limits:change');
  const names = new Map(workspaces.map((workspace) => [workspace.id, workspace.display_name]));
  const shown = (status.data ?? [])
    .filter(isWorkspaceLimitStatus)
    .filter(
      (entry) =>
        workspaceIds.includes(entry.workspace_id) &&
        (entry.limit_type === 'monthly_traces' || entry.limit_value !== null),
    )
    .map((entry) => (mayChangeLimits ? entry : { ...entry, can_edit: false }));
  const first = status.data?.[0];
  const canEditAny = shown.some((entry) => entry.can_edit);

  return (
    <section className="panel limits-panel" aria-labelledby="usage-limits-heading">
      <div className="panel-heading">
        <h3 id="usage-limits-heading">Usage limits this month</h3>
        {first ? (
          <span className="muted small">
            {formatUtc(Date.parse(first.month_start), 'MMMM yyyy')} (UTC) · resets{' '}
            {formatUtc(Date.parse(first.resets_at), 'MMM d')} at 00:00 UTC
          </span>
        ) : null}
      </div>
      {status.isPending ? <p className="muted small">Reading the limits…</p> : null}
      {/* Quiet: a refused key is already reported above, and LangSmith's own API has no status. */}
      {status.isError ? (
        <p className="muted small">Usage limits are not available: {status.error.message}</p>
      ) : null}
      {status.data ? (
        <div className="table-scroll">
          <table className="limits-table">
            <caption className="visually-hidden">Usage limits this month, by workspace</caption>
            <thead>
              <tr>
                <th scope="col">Workspace</th>
                <th scope="col">This month</th>
                <th scope="col">Outlook</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((entry) => (
                <LimitRow
                  key={`${entry.workspace_id}-${entry.limit_type}`}
                  status={entry}
                  workspaceName={names.get(entry.workspace_id) ?? entry.workspace_id}
                  nowMs={nowMs}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {status.data && !canEditAny && shown.length > 0 ? (
        <p className="muted small">
          Read-only: changing limits needs a key with the usage-limits:manage permission.
        </p>
      ) : null}
      {status.data ? <OrgDefaultLimits canEdit={canEditAny} /> : null}
      {status.data ? (
        <ScopedLimitsCard
          workspaces={workspaces.filter((workspace) => workspaceIds.includes(workspace.id))}
          canEdit={canEditAny}
          nowMs={nowMs}
        />
      ) : null}
      {status.data ? <AlertDeliveryLog names={names} /> : null}
    </section>
  );
}
