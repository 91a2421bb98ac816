import { randomUUID } from 'node:crypto';
import { newlyCrossed } from '@contracts/usage/limit-alerts';
import { limitMonth } from '@contracts/usage/limit-period';
import type { LimitAlertPayload } from '@contracts/usage/usage-limits';
import type { UsageStore } from '../store/usage-store';
import { insertAlerts, listAlerts, recordDelivery, type AlertRow } from './alert-store';
import { loadEffectiveLimits, loadMonthUsage } from './effective-limits';
import { deliverAlert, type WebhookConfig } from './webhook-sender';

export interface AlertEvaluator {
  /** Looks at these workspaces' counts now; alerts each threshold crossed once per month. */
  evaluate(workspaceIds: readonly string[]): Promise<void>;
  /** Resolves once every evaluation and delivery under way has finished (tests, shutdown). */
  idle(): Promise<void>;
}

/**
 * Alerts when a workspace's month-to-date count reaches a threshold of a limit (50/80/100 % by
 * default; 100 % always, it dates "limit reached"). Evaluations run one after another, so a
 * threshold is recorded once; each new alert is then POSTed to the webhook when one is
 * configured, with retries, every attempt logged. The tab reads the recorded alerts as notices.
 */
export function createAlertEvaluator(
  store: UsageStore,
  options: { webhook?: WebhookConfig; now?: () => number } = {},
): AlertEvaluator {
  const now = options.now ?? Date.now;
  let chain: Promise<void> = Promise.resolve();
  const deliveries = new Set<Promise<unknown>>();

  const run = async (workspaceIds: readonly string[]) => {
    const nowMs = now();
    const month = limitMonth(nowMs);
    const fresh = await store.withConnection(async (connection) => {
      const limits = await loadEffectiveLimits(connection);
      const ids = workspaceIds.filter((id) => limits.has(id));
      if (ids.length === 0) return [];
      const used = await loadMonthUsage(connection, ids, month);
      const sent = await listAlerts(connection, ids, month.startMs);
      const rows: AlertRow[] = [];
      for (const id of ids) {
        for (const limit of limits.get(id) ?? []) {
          const already = new Set(
            sent
              .filter((row) => row.workspaceId === id && row.limitType === limit.limitType)
              .map((row) => row.threshold),
          );
          const count = used.get(id)?.[limit.limitType] ?? 0;
          const thresholds = [...new Set([...limit.thresholds, 100])];
          for (const threshold of newlyCrossed(count, limit.limitValue, thresholds, already)) {
            rows.push({
              alertId: randomUUID(),
              workspaceId: id,
              limitType: limit.limitType,
              monthStartMs: month.startMs,
              threshold,
              used: count,
              limitValue: limit.limitValue,
              crossedAt: new Date(nowMs),
            });
          }
        }
      }
      await insertAlerts(connection, rows);
      const names = await connection.runAndReadAll(
        `SELECT id::VARCHAR, display_name FROM workspaces
         WHERE list_contains(string_split($1, ','), id::VARCHAR)`,
        [ids.join(',')],
      );
      const nameOf = new Map(names.getRowsJS().map(([id, name]) => [String(id), String(name)]));
      return rows.map((row) => ({ row, name: nameOf.get(row.workspaceId) ?? row.workspaceId }));
    });
    const webhook = options.webhook;
    if (!webhook) return;
    for (const { row, name } of fresh) {
      const delivery = deliverAlert(webhook, payloadOf(row, name, month.endMs), (attempt) =>
        store.withConnection((connection) => recordDelivery(connection, row, attempt)),
      ).catch((error: unknown) => console.error('[usage] alert delivery failed:', error));
      deliveries.add(delivery);
      void delivery.finally(() => deliveries.delete(delivery));
    }
  };

  // Requests arriving while an evaluation waits join it (a burst of batches, one look).
  let queued: { ids: Set<string>; done: Promise<void> } | undefined;
  return {
    evaluate(workspaceIds) {
      if (queued) {
        for (const id of workspaceIds) queued.ids.add(id);
        return queued.done;
      }
      const ids = new Set(workspaceIds);
      const next = chain.then(() => {
        queued = undefined;
        return run([...ids]);
      });
      queued = { ids, done: next };
      chain = next.catch((error: unknown) =>
        console.error('[usage] alert evaluation failed:', error),
      );
      return next;
    },
    async idle() {
      await chain;
      while (deliveries.size > 0) await Promise.all([...deliveries]);
    },
  };
}

function payloadOf(row: AlertRow, workspaceName: string, resetsAtMs: number): LimitAlertPayload {
  return {
    type: 'usage_limit.threshold_crossed',
    alert_id: row.alertId,
    workspace_id: row.workspaceId,
    workspace_name: workspaceName,
    limit_type: row.limitType,
    limit_value: row.limitValue,
    threshold: row.threshold,
    used: row.used,
    month_start: new Date(row.monthStartMs).toISOString(),
    resets_at: new Date(resetsAtMs).toISOString(),
    crossed_at: row.crossedAt.toISOString(),
  };
}
