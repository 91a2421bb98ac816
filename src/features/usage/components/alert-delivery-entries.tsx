import { formatUtc } from '@/lib/format-utc';
import type { AlertDelivery } from '@contracts/usage/usage-limits';
import { useAlertDeliveries } from '../api/get-alert-deliveries';

/** Which of the workspace's limits alerted, when not its own trace limits. */
function limitOf(entry: AlertDelivery): string {
  if (entry.limit_type === 'monthly_spend') return ' · spend';
  if (entry.scope === 'project' || entry.scope === 'user') {
    return ` · ${entry.scope} ${entry.target_id ?? ''}`;
  }
  return '';
}

/** The log's entries, read when the log is first opened. */
export function AlertDeliveryEntries({ names }: { names: ReadonlyMap<string, string> }) {
  const deliveries = useAlertDeliveries(true);
  return (
    <>
      {deliveries.isPending ? <p className="muted small">Reading the log…</p> : null}
      {deliveries.isError ? (
        <p className="field-error" role="alert">
          Could not read the log: {deliveries.error.message}
        </p>
      ) : null}
      {deliveries.data && deliveries.data.length === 0 ? (
        <p className="muted small">
          Nothing sent yet. Alerts go to USAGE_ALERT_WEBHOOK_URL when it is set on the server.
        </p>
      ) : null}
      {deliveries.data && deliveries.data.length > 0 ? (
        <table className="limit-log-table" aria-label="Alert webhook deliveries">
          <thead>
            <tr>
              <th scope="col">When (UTC)</th>
              <th scope="col">Workspace</th>
              <th scope="col">Threshold</th>
              <th scope="col">Attempt</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.map((entry) => (
              <tr key={`${entry.alert_id}-${entry.attempt}`}>
                <td>{formatUtc(Date.parse(entry.attempted_at), 'MMM d HH:mm:ss')}</td>
                <td>
                  {names.get(entry.workspace_id) ?? entry.workspace_id}
                  {limitOf(entry)}
                </td>
                <td className="num">{entry.threshold}%</td>
                <td className="num">{entry.attempt}</td>
                <td>{entry.ok ? `Delivered (${entry.status})` : (entry.error ?? 'Failed')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
