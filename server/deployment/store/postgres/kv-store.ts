import type pg from 'pg';
import type { KvStore } from '../deployment-store';
import { matchesFilter } from '../item-filter';
import { createIncreasingClock, pickNamespaces, SEPARATOR } from '../namespaces';
import type { StoreItem } from '../records';

const COLUMNS = 'namespace, key, value, created_at, updated_at';

interface ItemRow extends Omit<StoreItem, 'namespace'> {
  namespace: string;
}

const toItem = (row: ItemRow): StoreItem => ({ ...row, namespace: row.namespace.split(SEPARATOR) });

/** `namespace` is `$1` or below it, label-wise (`a.b` is under `a`, `ab` is not). */
const UNDER = `($1 = '' OR namespace = $1 OR left(namespace, length($1) + 1) = $1 || '.')`;

/** The namespace holds each label of `$2`. */
const HOLDS_LABELS = `NOT EXISTS (SELECT 1 FROM unnest($2::text[]) AS label
  WHERE strpos('.' || namespace || '.', '.' || label || '.') = 0)`;

/** The Store API's items (long-term memory) in `deployment.store_items`. */
export function createPostgresKvStore(pool: pg.Pool): KvStore {
  const now = createIncreasingClock();
  return {
    async put(namespace, key, value) {
      const time = now();
      await pool.query(
        `INSERT INTO deployment.store_items (${COLUMNS}) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
           updated_at = excluded.updated_at`,
        [namespace.join(SEPARATOR), key, JSON.stringify(value), time],
      );
    },
    async get(namespace, key) {
      const { rows } = await pool.query<ItemRow>(
        `SELECT ${COLUMNS} FROM deployment.store_items WHERE namespace = $1 AND key = $2`,
        [namespace.join(SEPARATOR), key],
      );
      return rows[0] ? toItem(rows[0]) : null;
    },
    async delete(namespace, key) {
      await pool.query('DELETE FROM deployment.store_items WHERE namespace = $1 AND key = $2', [
        namespace.join(SEPARATOR),
        key,
      ]);
    },
    async search(prefix, { filter, labels = [], limit, offset }) {
      const { rows } = await pool.query<ItemRow>(
        `SELECT ${COLUMNS} FROM deployment.store_items WHERE ${UNDER} AND ${HOLDS_LABELS}
         ORDER BY updated_at DESC, key`,
        [prefix.join(SEPARATOR), labels],
      );
      const items = rows.map(toItem);
      const matching = filter ? items.filter((item) => matchesFilter(item.value, filter)) : items;
      return matching.slice(offset, offset + limit);
    },
    async namespaces(query) {
      const { rows } = await pool.query<{ namespace: string }>(
        `SELECT DISTINCT namespace FROM deployment.store_items WHERE ${UNDER} AND ${HOLDS_LABELS}
         ORDER BY namespace`,
        [(query.prefix ?? []).join(SEPARATOR), query.labels ?? []],
      );
      return pickNamespaces(
        rows.map((row) => row.namespace),
        query,
      );
    },
  };
}
