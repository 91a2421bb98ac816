import type Database from 'better-sqlite3';
import type { KvStore } from '../deployment-store';
import { matchesFilter } from '../item-filter';
import { createIncreasingClock, pickNamespaces, SEPARATOR } from '../namespaces';
import type { StoreItem } from '../records';

interface ItemRow {
  namespace: string;
  key: string;
  value: string;
  created_at: string;
  updated_at: string;
}

const toItem = (row: ItemRow): StoreItem => ({
  namespace: row.namespace.split(SEPARATOR),
  key: row.key,
  value: JSON.parse(row.value) as Record<string, unknown>,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** `path` is `prefix` or below it, label-wise (`a.b` is under `a`, `ab` is not). */
const PREFIX_SQL = `(@prefix = '' OR namespace = @prefix
  OR substr(namespace, 1, length(@prefix) + 1) = @prefix || '.')`;

/** The namespace holds each label of the JSON array `@labels`. */
const LABELS_SQL = `NOT EXISTS (SELECT 1 FROM json_each(@labels) AS label
  WHERE instr('.' || store_items.namespace || '.', '.' || label.value || '.') = 0)`;

type UnderParams = { prefix: string; labels: string };
const underParams = (prefix: readonly string[], labels: readonly string[] = []): UnderParams => ({
  prefix: prefix.join(SEPARATOR),
  labels: JSON.stringify(labels),
});

/** The Store API's items (long-term memory), in the SQLite file. */
export function createSqliteKvStore(db: Database.Database): KvStore {
  const now = createIncreasingClock();
  db.exec(`
    CREATE TABLE IF NOT EXISTS store_items (
      namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (namespace, key)
    );
  `);
  const upsert = db.prepare<[string, string, string, string, string]>(
    `INSERT INTO store_items (namespace, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
       updated_at = excluded.updated_at`,
  );
  const selectOne = db.prepare<[string, string], ItemRow>(
    'SELECT * FROM store_items WHERE namespace = ? AND key = ?',
  );
  const remove = db.prepare<[string, string]>(
    'DELETE FROM store_items WHERE namespace = ? AND key = ?',
  );
  const selectUnder = db.prepare<[UnderParams], ItemRow>(
    `SELECT * FROM store_items WHERE ${PREFIX_SQL} AND ${LABELS_SQL}
     ORDER BY updated_at DESC, key`,
  );
  const selectNamespaces = db.prepare<[UnderParams], { namespace: string }>(
    `SELECT DISTINCT namespace FROM store_items WHERE ${PREFIX_SQL} AND ${LABELS_SQL}
     ORDER BY namespace`,
  );

  return {
    async put(namespace, key, value) {
      upsert.run(namespace.join(SEPARATOR), key, JSON.stringify(value), now(), now());
    },
    async get(namespace, key) {
      const row = selectOne.get(namespace.join(SEPARATOR), key);
      return row ? toItem(row) : null;
    },
    async delete(namespace, key) {
      remove.run(namespace.join(SEPARATOR), key);
    },
    async search(prefix, { filter, labels, limit, offset }) {
      const items = selectUnder.all(underParams(prefix, labels)).map(toItem);
      const matching = filter ? items.filter((item) => matchesFilter(item.value, filter)) : items;
      return matching.slice(offset, offset + limit);
    },
    async namespaces(query) {
      const rows = selectNamespaces.all(underParams(query.prefix ?? [], query.labels));
      return pickNamespaces(
        rows.map((row) => row.namespace),
        query,
      );
    },
  };
}
