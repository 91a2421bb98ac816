import type { Pool } from 'pg';
import type { UsageLimitStore } from '@server/usage/store/usage-limit-store';
import {
  countRefusals,
  insertAlerts,
  listAlerts,
  listDeliveries,
  recordDelivery,
} from './alert-sql';
import {
  deleteLimit,
  findLimit,
  listDefaults,
  loadEffectiveLimits,
  listLimits,
  putDefault,
  upsertLimit,
} from './limit-sql';
import { readMonthUsage, type MonthBaseline } from './month-counters';
import {
  countScopedRefusals,
  insertScopedAlerts,
  listScopedAlerts,
  loadTargetUsage,
} from './scoped-alert-sql';
import {
  deleteScopedLimit,
  findScopedLimit,
  listScopedLimits,
  upsertScopedLimit,
} from './scoped-limit-sql';
import type { TargetBaseline } from './target-counters';

/**
 * The limits port with Postgres as their home (schema `usage`, migrations 20, 42 and 44):
 * limits (project, user and spend limits too), the org default, alerts, the delivery log,
 * refusals and the month counters are shared by every replica, and every read goes to Postgres,
 * so a change made through one replica is what the next batch on any replica is held to. Month
 * counts come from the counter rows the claims keep (`month-counters.ts`, `target-counters.ts`);
 * `baseline` and `targetBaseline` read ClickHouse for a month no claim has counted yet.
 */
export function createPostgresLimitStore(
  pool: Pool,
  baseline: MonthBaseline,
  targetBaseline: TargetBaseline,
): UsageLimitStore {
  return {
    list: (ids) => listLimits(pool, ids),
    find: (id) => findLimit(pool, id),
    upsert: (write) => upsertLimit(pool, write),
    remove: (id) => deleteLimit(pool, id),
    defaults: () => listDefaults(pool),
    putDefault: (type, value) => putDefault(pool, type, value),
    effective: () => loadEffectiveLimits(pool),
    monthUsage: (ids, month) =>
      readMonthUsage(pool, ids, new Date(month.startMs).toISOString().slice(0, 10), baseline),
    alerts: (ids, monthStartMs) => listAlerts(pool, ids, monthStartMs),
    insertAlerts: (rows) => insertAlerts(pool, rows),
    recordDelivery: (alert, attempt) => recordDelivery(pool, alert, attempt),
    deliveries: (ids, limit) => listDeliveries(pool, ids, limit),
    refusals: (ids, range, project) => countRefusals(pool, ids, range, project),
    scoped: {
      list: (ids) => listScopedLimits(pool, ids),
      find: (id) => findScopedLimit(pool, id),
      upsert: (write) => upsertScopedLimit(pool, write),
      remove: (id) => deleteScopedLimit(pool, id),
    },
    scopedAlerts: {
      targetUsage: (targets, month) => loadTargetUsage(pool, targets, month, targetBaseline),
      alerts: (ids, monthStartMs) => listScopedAlerts(pool, ids, monthStartMs),
      insertAlerts: (rows) => insertScopedAlerts(pool, rows),
      recordDelivery: (alert, attempt) => recordDelivery(pool, alert, attempt),
      refusals: (ids, range) => countScopedRefusals(pool, ids, range),
    },
    async workspaceNames(ids) {
      if (ids.length === 0) return new Map<string, string>();
      const result = await pool.query<{ id: string; display_name: Buffer }>(
        'SELECT id::text, display_name FROM usage.workspaces WHERE id = ANY($1::uuid[])',
        [ids],
      );
      return new Map(result.rows.map((row) => [row.id, row.display_name.toString('utf8')]));
    },
  };
}
