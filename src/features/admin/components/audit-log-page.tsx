import { useState } from 'react';
import type { AuditLogEntry } from '@contracts/usage/admin-schema';
import { useUsageConnection } from '@/features/usage/api/usage-connection';
import { AUDIT_PAGE_SIZE, downloadAuditCsv, useAuditLog } from '../api/audit-log';
import { AdminLoadError } from './admin-load-error';
import { formatUtc } from './api-keys-page';
import './admin.css';

/** Every change made through the usage API, newest first: who, when (UTC), what before → after. */
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
          <div className="table-scroll">
            <table className="data-table" aria-labelledby="audit-log-heading">
              <thead>
                <tr>
                  <th scope="col">When (UTC)</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
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
      <td>
        <time dateTime={entry.at}>{formatUtc(entry.at)}</time>
      </td>
      <td className="wrap-cell">{entry.actor}</td>
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
      <td className="wrap-cell">
        <StateCell value={entry.before} />
      </td>
      <td className="wrap-cell">
        <StateCell value={entry.after} />
      </td>
    </tr>
  );
}

function StateCell({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  return <code className="small">{JSON.stringify(value)}</code>;
}
