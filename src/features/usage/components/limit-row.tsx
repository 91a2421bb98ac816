import { lazy, Suspense, useState } from 'react';
import type { WorkspaceLimitStatus } from '@contracts/usage/usage-limits';
import { formatCount } from '@/lib/format';
import { formatUtc } from '@/lib/format-utc';
import { LIMIT_TYPE_NAMES } from '../model/limit-type-names';
import {
  formatLimitShare,
  limitOutlook,
  limitShare,
  type LimitOutlook,
} from '../model/limit-projection';
import { RemoveLimit } from './remove-limit';

// The editor (react-hook-form) is needed only once someone edits a limit: its own chunk, out of
// the usage tab's first load.
const LimitEditor = lazy(() =>
  import('./limit-editor').then((module) => ({ default: module.LimitEditor })),
);

const when = (ms: number) => `${formatUtc(ms, 'MMM d')} at ${formatUtc(ms, 'HH:mm')} UTC`;

function describeOutlook(outlook: LimitOutlook): string | null {
  switch (outlook.kind) {
    case 'reached':
      return outlook.atMs === null
        ? 'Limit reached: new traces are refused until the month ends.'
        : `Limit reached on ${when(outlook.atMs)}: new traces are refused until the month ends.`;
    case 'imminent':
      return 'At the current pace, the limit is reached within the hour.';
    case 'projected':
      return `At the current pace, the limit is reached on ${when(outlook.atMs)}.`;
    case 'within':
      return `At the current pace, the month ends at about ${formatCount(outlook.projected)} traces, within the limit.`;
    case 'no-pace':
      return 'No traces yet this month.';
    case 'no-limit':
      return null;
  }
}

/**
 * One workspace's limit of one type as a row of the limits table: the month so far (a bar
 * against the limit), the limit and its alerts, the outlook, and one action. The editor and the
 * removal's confirmation open in a row of their own below it.
 */
export function LimitRow({
  status,
  workspaceName,
  nowMs,
}: {
  status: WorkspaceLimitStatus;
  workspaceName: string;
  nowMs: number;
}) {
  const [editing, setEditing] = useState(false);
  const limit = status.limit_value;
  const reachedAtMs = status.reached_at ? Date.parse(status.reached_at) : null;
  const outlook = limitOutlook(status.used, limit, reachedAtMs, nowMs);
  const share = limit === null ? 0 : limitShare(status.used, limit);
  const reached = outlook.kind === 'reached';
  const label = `${workspaceName}: ${LIMIT_TYPE_NAMES[status.limit_type].toLowerCase()} this month`;
  const text = describeOutlook(outlook);
  // Alerts of the month above where the limit stands now (it was raised since) are not news.
  const crossed = status.alerts.filter((alert) => alert.threshold <= share);
  const lastCrossed = crossed.at(-1);

  return (
    <>
      <tr className="limit-row">
        <th scope="row">
          <span className="limit-name">{workspaceName}</span>
          <span className="muted small">
            {LIMIT_TYPE_NAMES[status.limit_type]}
            {status.source === 'org_default' ? ' · org default' : ''}
          </span>
        </th>
        <td>
          {limit === null ? (
            <p className="muted small">
              No limit: {formatCount(status.used)} traces this month, none refused.
            </p>
          ) : (
            <>
              <div
                className={`limit-bar${reached ? ' limit-bar-full' : share >= 80 ? ' limit-bar-high' : ''}`}
                role="meter"
                aria-label={label}
                aria-valuemin={0}
                aria-valuemax={limit}
                aria-valuenow={Math.min(status.used, limit)}
                aria-valuetext={`${formatCount(status.used)} of ${formatCount(limit)} traces`}
              >
                <span style={{ width: `${Math.min(100, share)}%` }} />
              </div>
              <p className="small">
                <strong>{formatCount(status.used)}</strong> of {formatCount(limit)} traces (
                {formatLimitShare(status.used, limit)})
                {status.refused > 0 ? ` · ${formatCount(status.refused)} refused` : ''}
              </p>
            </>
          )}
        </td>
        <td>
          {limit === null ? null : (
            <>
              {text ? <p className={reached ? 'notice limit-notice' : 'small'}>{text}</p> : null}
              {status.alert_thresholds.length > 0 ? (
                <p className="muted small">
                  Alerts at {status.alert_thresholds.map((threshold) => `${threshold}%`).join(', ')}
                  .
                </p>
              ) : null}
              {lastCrossed && !reached ? (
                <p className="muted small" role="status">
                  {`${lastCrossed.threshold}% of the limit reached on ${when(Date.parse(lastCrossed.crossed_at))}.`}
                </p>
              ) : null}
            </>
          )}
        </td>
        <td className="limit-actions">
          {status.can_edit && !editing ? (
            <div className="limit-editor-actions">
              <button
                type="button"
                className="button button-secondary button-small"
                aria-label={
                  limit === null
                    ? `Set a limit for ${workspaceName}`
                    : `Change the limit for ${workspaceName}`
                }
                onClick={() => setEditing(true)}
              >
                {limit === null ? 'Set a limit' : 'Change'}
              </button>
              {status.limit_id !== null && limit !== null ? (
                <RemoveLimit
                  limitId={status.limit_id}
                  workspaceName={workspaceName}
                  limitValue={limit}
                />
              ) : null}
            </div>
          ) : null}
        </td>
      </tr>
      {editing ? (
        <tr className="limit-editor-row">
          <td colSpan={4}>
            <Suspense fallback={<p className="muted small">Loading the limit editor…</p>}>
              <LimitEditor
                workspaceId={status.workspace_id}
                workspaceName={workspaceName}
                limitType={status.limit_type}
                current={limit}
                thresholds={status.alert_thresholds}
                onDone={() => setEditing(false)}
              />
            </Suspense>
          </td>
        </tr>
      ) : null}
    </>
  );
}
