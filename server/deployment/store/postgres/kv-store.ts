import type pg from 'pg';
import type { KvStore } from '../deployment-store';
import { expiryOf } from '../item-expiry';
import { matchesFilter } from '../item-filter';
import { createIncreasingClock, pickNamespaces, SEPARATOR } from '../namespaces';
import type { StoreItem } from '../records';

const COLUMNS = 'namespace, key, value, created_at, updated_at';

interface ItemRow extends Omit<StoreItem, 'namespace'> {
  namespace: string;
  ttl_minutes: number | null;
}

const toItem = ({ ttl_minutes: _ttl, ...row }: ItemRow): StoreItem => ({
  ...row,
  namespace: row.namespace.split(SEPARATOR),
});

/** `namespace` is `$1` or below it, label-wise (`a.b` is under `a`, `ab` is not). */
const UNDER = `($1 = '' OR namespace = $1 OR left(namespace, length($1) + 1) = $1 || '.')`;
/** Not expired at `$2` (ISO strings of one format compare as instants). */
const LIVE = '(expires_at IS NULL OR expires_at > $2)';

/** The namespace holds each label of `$3`. */
const HOLDS_LABELS = `NOT EXISTS (SELECT 1 FROM unnest($3::text[]) AS label
  WHERE strpos('.' || namespace || '.', '.' || label || '.') = 0)`;

/** The Store API's items (long-term memory) in `deployment.store_items`. */
export function createPostgresKvStore(pool: pg.Pool): KvStore {
  const now = createIncreasingClock();
  // One statement for any number of items: each item's expiry restarts from now.
  const refresh = async (rows: ItemRow[]) => {
    const expiring = rows.filter((row) => row.ttl_minutes);
    if (expiring.length === 0) return;
    await pool.query(
      `UPDATE deployment.store_items s SET expires_at = r.expires_at
       FROM unnest($1::text[], $2::text[], $3::text[]) AS r(namespace, key, expires_at)
       WHERE s.namespace = r.namespace AND s.key = r.key`,
      [
        expiring.map((row) => row.namespace),
        expiring.map((row) => row.key),
        expiring.map((row) => expiryOf(row.ttl_minutes)),
      ],
    );
  };
  return {
    async put(namespace, key, value, ttlMinutes) {
      const time = now();
      await pool.query(
        `INSERT INTO deployment.store_items (${COLUMNS}, expires_at, ttl_minutes)
         VALUES ($1, $2, $3, $4, $4, $5, $6)
         ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
           updated_at = excluded.updated_at, expires_at = excluded.expires_at,
           ttl_minutes = excluded.ttl_minutes`,
        [
          namespace.join(SEPARATOR),
          key,
          JSON.stringify(value),
          time,
          expiryOf(ttlMinutes),
          ttlMinutes ?? null,
        ],
      );
    },
    async get(namespace, key, refreshTtl) {
      const { rows } = await pool.query<ItemRow>(
        `SELECT ${COLUMNS}, ttl_minutes FROM deployment.store_items
         WHERE namespace = $1 AND ${LIVE} AND key = $3`,
        [namespace.join(SEPARATOR), new Date().toISOString(), key],
      );
      if (refreshTtl) await refresh(rows);
      return rows[0] ? toItem(rows[0]) : null;
    },
    async delete(namespace, key) {
      await pool.query('DELETE FROM deployment.store_items WHERE namespace = $1 AND key = $2', [
        namespace.join(SEPARATOR),
        key,
      ]);
    },
    async search(prefix, { filter, labels = [], limit, offset, refreshTtl }) {
      const { rows } = await pool.query<ItemRow>(
        `SELECT ${COLUMNS}, ttl_minutes FROM deployment.store_items
         WHERE ${UNDER} AND ${LIVE} AND ${HOLDS_LABELS}
         ORDER BY updated_at DESC, key`,
        [prefix.join(SEPARATOR), new Date().toISOString(), labels],
      );
      const matching = filter ? rows.filter((row) => matchesFilter(row.value, filter)) : rows;
      const page = matching.slice(offset, offset + limit);
      if (refreshTtl) await refresh(page);
      return page.map(toItem);
    },
    async namespaces(query) {
      const { rows } = await pool.query<{ namespace: string }>(
        `SELECT DISTINCT namespace FROM deployment.store_items
         WHERE ${UNDER} AND ${LIVE} AND ${HOLDS_LABELS}
         ORDER BY namespace`,
        [(query.prefix ?? []).join(SEPARATOR), new Date().toISOString(), query.labels ?? []],
      );
      return pickNamespaces(
        rows.map((row) => row.namespace),
        query,
      );
    },
    async sweepExpired(at) {
      const { rowCount } = await pool.query(
        'DELETE FROM deployment.store_items WHERE expires_at IS NOT NULL AND expires_at <= $1',
        [at.toISOString()],
      );
      return rowCount ?? 0;
    },
  };
}
