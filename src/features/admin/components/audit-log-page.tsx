import { useState } from 'react';
import type { AuditLogEntry } from '@contracts/usage/admin-schema';
import { useUsageConnection } from '@/features/usage/api/usage-connection';
import { AUDIT_PAGE_SIZE, downloadAuditCsv, useAuditLog } from '../api/audit-log';
import { auditChanges, shownValue } from '../model/audit-changes';
import { AdminLoadError } from './admin-load-error';
import { formatUtc } from './api-keys-page';
import './admin.css';

/** Every change made through the usage API, newest first: who, when (UTC), which fields changed. */
export function AuditLogPage() {
  const [offset, setOffset] = useState(0);
  const log = useAuditLog(offset);
  const { connection } = useUsageConnection();
  const [exportError, setExportError] = useState<string | null>(null);
  const exportCsv = () => {
    setExportError(null);
    downloadAuditCsv(connection).catch((error: unknown) =>
      setExportError(error instanceof Error ? error.message : String(error)),
    );
  };
  return (
    <section className="panel admin-page" aria-labelledby="audit-log-heading">
      <div className="panel-heading">
        <h2 id="audit-log-heading">Audit log</h2>
        <button type="button" className="button button-secondary" onClick={exportCsv}>
          Export CSV
        </button>
      </div>
      {exportError ? (
        <p className="field-error" role="alert">
          The export failed: {exportError}
        </p>
      ) : null}
      {log.isPending ? (
        <p className="muted" role="status">
          Loading the audit log…
        </p>
      ) : log.isError ? (
        <AdminLoadError error={log.error} what="the audit log" />
      ) : log.data.total === 0 ? (
        <p className="empty-state">
          No changes yet. Changes to limits, alerts, prices, the plan and API keys will be listed
          here.
        </p>
      ) : (
        <>
          <div className="table-scroll audit-scroll">
            <table className="data-table audit-table" aria-labelledby="audit-log-heading">
              <thead>
                <tr>
                  <th scope="col">When (UTC)</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {log.data.entries.map((entry) => (
                  <AuditRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Audit log pages">
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - AUDIT_PAGE_SIZE))}
            >
              Newer
            </button>
            <span className="muted small">
              {offset + 1}–{Math.min(offset + AUDIT_PAGE_SIZE, log.data.total)} of {log.data.total}
            </span>
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={offset + AUDIT_PAGE_SIZE >= log.data.total}
              onClick={() => setOffset(offset + AUDIT_PAGE_SIZE)}
            >
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

/** What each change the console records is called in plain words; the code stays beside it. */
const ACTION_NAMES: Readonly<Record<string, string>> = {
  'api_key.create': 'API key created',
  'api_key.revoke': 'API key revoked',
  'billing_plan.set': 'Plan and prices changed',
  'model_price.create': 'Model price added',
  'model_price.set': 'Model price changed',
  'model_price.remove': 'Model price removed',
  'usage_limit.set': 'Usage limit set',
  'usage_limit.remove': 'Usage limit removed',
  'usage_limit_default.set': 'Default usage limit set',
};

function AuditRow({ entry }: { entry: AuditLogEntry }) {
  const name = ACTION_NAMES[entry.action];
  return (
    <tr>
      <td data-label="When (UTC)">
        <time dateTime={entry.at}>{formatUtc(entry.at)}</time>
      </td>
      <td className="wrap-cell" data-label="Who">
        {entry.actor}
      </td>
      <th scope="row">
        {name ? (
          <>
            {name}{' '}
            <span className="muted small">
              {entry.action} {entry.target}
            </span>
          </>
        ) : (
          <>
            {entry.action} <span className="muted small">{entry.target}</span>
          </>
        )}
      </th>
      <td className="wrap-cell" data-label="Change">
        <ChangeCell entry={entry} />
      </td>
    </tr>
  );
}

/**
 * Each changed field as `field: before → after` (a new field shows its value alone, a removed
 * one "removed"), long values cut with the whole in a tooltip; the states as recorded stay one
 * click away.
 */
function ChangeCell({ entry }: { entry: AuditLogEntry }) {
  const changes = auditChanges(entry.before, entry.after);
  const recorded = entry.before !== null || entry.after !== null;
  return (
    <>
      {changes.length === 0 ? (
        <span className="muted">{recorded ? 'No field changed' : '—'}</span>
      ) : (
        <ul className="change-list">
          {changes.map((change) => (
            <li key={change.field}>
              <span className="change-field">{change.field}</span>:{' '}
              {change.before === null ? null : (
                <>
                  <Value text={change.before} /> →{' '}
                </>
              )}
              {change.after === null ? (
                <span className="muted">removed</span>
              ) : (
                <Value text={change.after} />
              )}
            </li>
          ))}
        </ul>
      )}
      {recorded ? (
        <details className="raw-states">
          <summary>As recorded</summary>
          <dl>
            <dt>Before</dt>
            <dd>
              <code className="small">{JSON.stringify(entry.before) ?? 'null'}</code>
            </dd>
            <dt>After</dt>
            <dd>
              <code className="small">{JSON.stringify(entry.after) ?? 'null'}</code>
            </dd>
          </dl>
        </details>
      ) : null}
    </>
  );
}

function Value({ text }: { text: string }) {
  const shown = shownValue(text);
  return (
    <code className="small" title={shown === text ? undefined : text}>
      {shown}
    </code>
  );
}
