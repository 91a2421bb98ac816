import { randomUUID } from 'node:crypto';
import { newlyCrossed } from '@contracts/usage/limit-alerts';
import { limitMonth } from '@contracts/usage/limit-period';
import type { LimitAlertPayload } from '@contracts/usage/usage-limits';
import type { TracePrices } from '../model/spend-limit';
import type {
  AlertRow,
  DeliveryAttempt,
  ScopedAlertRow,
  UsageLimitStore,
} from '../store/usage-limit-store';
import { planTracePrices } from './plan-prices';
import { loadScopedLimitMonth, newScopedAlerts } from './scoped-alerts';
import { deliverAlert, type WebhookConfig } from './webhook-sender';

export interface AlertEvaluatorOptions {
  webhook?: WebhookConfig;
  now?: () => number;
  /** The plan's trace prices a spend limit's dollars are counted at (default: the default plan). */
  prices?: () => Promise<TracePrices>;
}

export interface AlertEvaluator {
  /** Looks at these workspaces' counts now; alerts each threshold crossed once per month. */
  evaluate(workspaceIds: readonly string[]): Promise<void>;
  /** After billing: evaluates unless the workspace is known to have no limit (no query then). */
  look(workspaceId: string): void;
  /** Resolves once every evaluation and delivery under way has finished (tests, shutdown). */
  idle(): Promise<void>;
}

/**
 * Alerts when a workspace's month-to-date count reaches a threshold of a limit (50/80/100 % by
 * default; 100 % always, it dates "limit reached"), and a project's or user's traces or a
 * workspace's spend in dollars a threshold of its limit. Evaluations run one after another (requests
 * arriving meanwhile join the next one), and the store records a threshold once across replicas
 * (`insertAlerts` returns only the alerts this call recorded); each new alert is then
 * POSTed to the webhook when one is configured, with retries, every attempt logged.
 */
export function createAlertEvaluator(
  limits: UsageLimitStore,
  options: AlertEvaluatorOptions = {},
): AlertEvaluator {
  const now = options.now ?? Date.now;
  const prices = options.prices ?? (() => planTracePrices({ plan: async () => undefined }));
  let chain: Promise<void> = Promise.resolve();
  let queued: { ids: Set<string>; done: Promise<void> } | undefined;
  // Workspaces with a limit as of the last evaluation (undefined before the first).
  let limited: Set<string> | undefined;
  // Whether a workspace had project, user or spend limits when last evaluated (absent: unknown).
  const scopedHolders = new Map<string, boolean>();
  const deliveries = new Set<Promise<unknown>>();

  const deliver = (
    alertId: string,
    payload: () => Promise<LimitAlertPayload>,
    record: (attempt: DeliveryAttempt) => Promise<void>,
  ) => {
    const webhook = options.webhook;
    if (!webhook) return;
    const delivery = payload()
      .then((body) => deliverAlert(webhook, body, record))
      .catch((error: unknown) => console.error(`[usage] alert ${alertId} delivery failed:`, error));
    deliveries.add(delivery);
    void delivery.finally(() => deliveries.delete(delivery));
  };

  const runScoped = async (workspaceIds: readonly string[], nowMs: number) => {
    const month = limitMonth(nowMs);
    const months = await loadScopedLimitMonth(limits, workspaceIds, month, prices);
    for (const id of workspaceIds) {
      scopedHolders.set(
        id,
        months.some((entry) => entry.limit.tenant_id === id),
      );
    }
    const rows = newScopedAlerts(months, month.startMs, nowMs);
    if (rows.length === 0) return;
    const store = limits.scopedAlerts;
    const recorded = await store.insertAlerts(rows);
    if (recorded.length === 0) return;
    const names = await limits.workspaceNames([...new Set(recorded.map((row) => row.workspaceId))]);
    for (const row of recorded) {
      deliver(
        row.alertId,
        async () => payloadOf(row, names.get(row.workspaceId) ?? row.workspaceId, month.endMs),
        (attempt) => store.recordDelivery(row, attempt),
      );
    }
  };

  const run = async (workspaceIds: readonly string[]) => {
    const nowMs = now();
    const month = limitMonth(nowMs);
    await runScoped(workspaceIds, nowMs);
    const effective = await limits.effective();
    limited = new Set(effective.keys());
    const ids = workspaceIds.filter((id) => effective.has(id));
    if (ids.length === 0) return;
    const used = await limits.monthUsage(ids, month);
    const sent = await limits.alerts(ids, month.startMs);
    const rows: AlertRow[] = [];
    for (const id of ids) {
      for (const limit of effective.get(id) ?? []) {
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
    if (rows.length === 0) return;
    // Another replica may have recorded some of them first: it delivers those, not us.
    const recorded = await limits.insertAlerts(rows);
    if (!options.webhook || recorded.length === 0) return;
    const names = await limits.workspaceNames(ids);
    for (const row of recorded) {
      deliver(
        row.alertId,
        async () => payloadOf(row, names.get(row.workspaceId) ?? row.workspaceId, month.endMs),
        (attempt) => limits.recordDelivery(row, attempt),
      );
    }
  };

  const evaluate = (workspaceIds: readonly string[]) => {
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
  };

  return {
    evaluate,
    look(workspaceId) {
      if (limited && !limited.has(workspaceId) && scopedHolders.get(workspaceId) === false) return;
      void evaluate([workspaceId]).catch(() => undefined);
    },
    async idle() {
      await chain;
      while (deliveries.size > 0) await Promise.all([...deliveries]);
    },
  };
}

function payloadOf(
  row: AlertRow | ScopedAlertRow,
  workspaceName: string,
  resetsAtMs: number,
): LimitAlertPayload {
  return {
    type: 'usage_limit.threshold_crossed',
    alert_id: row.alertId,
    workspace_id: row.workspaceId,
    workspace_name: workspaceName,
    scope: 'scope' in row ? row.scope : 'workspace',
    target_id: 'targetId' in row ? row.targetId : row.workspaceId,
    limit_type: row.limitType,
    limit_value: row.limitValue,
    threshold: row.threshold,
    used: row.used,
    month_start: new Date(row.monthStartMs).toISOString(),
    resets_at: new Date(resetsAtMs).toISOString(),
    crossed_at: row.crossedAt.toISOString(),
  };
}
