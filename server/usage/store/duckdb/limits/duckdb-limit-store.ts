import type { DuckDBConnection } from '@duckdb/node-api';
import type { UsageLimitStore } from '@server/usage/store/usage-limit-store';
import type { DuckDbStore } from '../connection';
import {
  countRefusals,
  insertAlerts,
  listAlerts,
  listDeliveries,
  recordDelivery,
} from './alert-sql';
import { loadEffectiveLimits, loadMonthUsage } from './effective-limits';
import {
  deleteLimit,
  findLimit,
  listDefaults,
  listLimits,
  putDefault,
  upsertLimit,
} from './limit-sql';
import { countScopedRefusals, insertScopedAlerts, listScopedAlerts } from './scoped-alert-sql';
import {
  deleteScopedLimit,
  findScopedLimit,
  listScopedLimits,
  loadTargetUsage,
  upsertScopedLimit,
} from './scoped-limit-sql';

/**
 * The limits port over the DuckDB file. Writes to limits call `changed` once committed, so the
 * ingestion writer reads them again before its next group.
 */
export function createDuckDbLimitStore(store: DuckDbStore, changed: () => void): UsageLimitStore {
  const read = store.withConnection.bind(store);
  const write = async <T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> => {
    const result = await read(work);
    changed();
    return result;
  };
  return {
    list: (ids) => read((db) => listLimits(db, ids)),
    find: (id) => read((db) => findLimit(db, id)),
    upsert: (limit) => write((db) => upsertLimit(db, limit)),
    remove: (id) => write((db) => deleteLimit(db, id)),
    defaults: () => read(listDefaults),
    putDefault: (type, value) => write((db) => putDefault(db, type, value)),
    effective: () => read(loadEffectiveLimits),
    monthUsage: (ids, month) => read((db) => loadMonthUsage(db, ids, month)),
    alerts: (ids, monthStartMs) => read((db) => listAlerts(db, ids, monthStartMs)),
    insertAlerts: (rows) => read((db) => insertAlerts(db, rows)),
    recordDelivery: (alert, attempt) => read((db) => recordDelivery(db, alert, attempt)),
    deliveries: (ids, limit) => read((db) => listDeliveries(db, ids, limit)),
    refusals: (ids, range, project) => read((db) => countRefusals(db, ids, range, project)),
    scoped: {
      list: (ids) => read((db) => listScopedLimits(db, ids)),
      find: (id) => read((db) => findScopedLimit(db, id)),
      upsert: (limit) => write((db) => upsertScopedLimit(db, limit)),
      remove: (id) => write((db) => deleteScopedLimit(db, id)),
    },
    scopedAlerts: {
      targetUsage: (targets, month) => read((db) => loadTargetUsage(db, targets, month)),
      alerts: (ids, monthStartMs) => read((db) => listScopedAlerts(db, ids, monthStartMs)),
      insertAlerts: (rows) => read((db) => insertScopedAlerts(db, rows)),
      recordDelivery: (alert, attempt) => read((db) => recordDelivery(db, alert, attempt)),
      refusals: (ids, range) => read((db) => countScopedRefusals(db, ids, range)),
    },
    workspaceNames: (ids) =>
      read(async (db) => {
        if (ids.length === 0) return new Map<string, string>();
        const reader = await db.runAndReadAll(
          `SELECT id::VARCHAR, display_name FROM workspaces
           WHERE list_contains(string_split($1, ','), id::VARCHAR)`,
          [ids.join(',')],
        );
        return new Map(reader.getRowsJS().map(([id, name]) => [String(id), String(name)]));
      }),
  };
}
