import type Database from 'better-sqlite3';
import type { KvStore } from '../deployment-store';
import { matchesFilter } from '../item-filter';
import { createIncreasingClock, pickNamespaces, SEPARATOR } from '../namespaces';
import type { StoreItem } from '../records';
import { expiryOf } from '../item-expiry';

interface ItemRow {
  namespace: string;
  key: string;
  value: string;
  created_at: string;
  updated_at: string;
  ttl_minutes: number | null;
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
/** Not expired at `@now` (ISO strings of one format compare as instants). */
const LIVE_SQL = '(expires_at IS NULL OR expires_at > @now)';

/** The namespace holds each label of the JSON array `@labels`. */
const LABELS_SQL = `NOT EXISTS (SELECT 1 FROM json_each(@labels) AS label
  WHERE instr('.' || store_items.namespace || '.', '.' || label.value || '.') = 0)`;

type UnderParams = { prefix: string; labels: string; now: string };
const underParams = (prefix: readonly string[], labels: readonly string[] = []): UnderParams => ({
  prefix: prefix.join(SEPARATOR),
  labels: JSON.stringify(labels),
  now: new Date().toISOString(),
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
  // Files from before items could expire have neither column.
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(store_items)').all();
  if (!columns.some((column) => column.name === 'expires_at')) {
    db.exec(`ALTER TABLE store_items ADD COLUMN expires_at TEXT;
      ALTER TABLE store_items ADD COLUMN ttl_minutes REAL;
      CREATE INDEX IF NOT EXISTS store_items_expiry ON store_items (expires_at)
        WHERE expires_at IS NOT NULL;`);
  }
  const upsert = db.prepare<[string, string, string, string, string, string | null, number | null]>(
    `INSERT INTO store_items (namespace, key, value, created_at, updated_at, expires_at, ttl_minutes)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
       updated_at = excluded.updated_at, expires_at = excluded.expires_at,
       ttl_minutes = excluded.ttl_minutes`,
  );
  const selectOne = db.prepare<{ namespace: string; key: string; now: string }, ItemRow>(
    `SELECT * FROM store_items WHERE namespace = @namespace AND key = @key AND ${LIVE_SQL}`,
  );
  const refresh = db.prepare<[string, string, string]>(
    'UPDATE store_items SET expires_at = ? WHERE namespace = ? AND key = ?',
  );
  const remove = db.prepare<[string, string]>(
    'DELETE FROM store_items WHERE namespace = ? AND key = ?',
  );
  const selectUnder = db.prepare<[UnderParams], ItemRow>(
    `SELECT * FROM store_items WHERE ${PREFIX_SQL} AND ${LIVE_SQL} AND ${LABELS_SQL}
     ORDER BY updated_at DESC, key`,
  );
  const selectNamespaces = db.prepare<[UnderParams], { namespace: string }>(
    `SELECT DISTINCT namespace FROM store_items
     WHERE ${PREFIX_SQL} AND ${LIVE_SQL} AND ${LABELS_SQL}
     ORDER BY namespace`,
  );
  const sweep = db.prepare<{ now: string }>(
    'DELETE FROM store_items WHERE expires_at IS NOT NULL AND expires_at <= @now',
  );
  const refreshed = db.transaction((rows: ItemRow[]) => {
    for (const row of rows) {
      const expiresAt = expiryOf(row.ttl_minutes);
      if (expiresAt) refresh.run(expiresAt, row.namespace, row.key);
    }
  });

  return {
    async put(namespace, key, value, ttlMinutes) {
      const time = now();
      upsert.run(
        namespace.join(SEPARATOR),
        key,
        JSON.stringify(value),
        time,
        time,
        expiryOf(ttlMinutes),
        ttlMinutes ?? null,
      );
    },
    async get(namespace, key, refreshTtl) {
      const at = new Date().toISOString();
      const row = selectOne.get({ namespace: namespace.join(SEPARATOR), key, now: at });
      if (row && refreshTtl) refreshed([row]);
      return row ? toItem(row) : null;
    },
    async delete(namespace, key) {
      remove.run(namespace.join(SEPARATOR), key);
    },
    async search(prefix, { filter, labels, limit, offset, refreshTtl }) {
      const rows = selectUnder.all(underParams(prefix, labels));
      const matching = filter
        ? rows.filter((row) => matchesFilter(toItem(row).value, filter))
        : rows;
      const page = matching.slice(offset, offset + limit);
      if (refreshTtl) refreshed(page);
      return page.map(toItem);
    },
    async namespaces(query) {
      const rows = selectNamespaces.all(underParams(query.prefix ?? [], query.labels));
      return pickNamespaces(
        rows.map((row) => row.namespace),
        query,
      );
    },
    sweepExpired: async (at) => sweep.run({ now: at.toISOString() }).changes,
  };
}
