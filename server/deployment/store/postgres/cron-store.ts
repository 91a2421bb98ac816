import type pg from 'pg';
import type { CronStore } from '../deployment-store';
import { metadataFilterSql } from './metadata-filter-sql';
import { newCronRecord, type CronFilter, type CronRecord } from '../records';

const COLUMNS = `cron_id, assistant_id, thread_id, schedule, payload, metadata, end_time,
  next_run_date, enabled, on_run_completed, user_id, created_at, updated_at`;

/** `$1..$3` are the filter's assistant id, thread id and enabled flag (each null when absent). */
const WHERE = `($1::text IS NULL OR assistant_id = $1) AND ($2::text IS NULL OR thread_id = $2)
  AND ($3::boolean IS NULL OR enabled = $3)`;

const filterValues = (filter: CronFilter) => [
  filter.assistant_id ?? null,
  filter.thread_id ?? null,
  filter.enabled ?? null,
];

/** The filter's metadata conditions, their parameters numbered from `$${first}`. */
const ownedBy = (filter: CronFilter, first: number) =>
  filter.metadata ? metadataFilterSql(filter.metadata, first) : { sql: 'TRUE', params: [] };

const values = (record: CronRecord) => [
  record.cron_id,
  record.assistant_id,
  record.thread_id,
  record.schedule,
  JSON.stringify(record.payload),
  JSON.stringify(record.metadata),
  record.end_time,
  record.next_run_date,
  record.enabled,
  record.on_run_completed,
  record.user_id,
  record.created_at,
  record.updated_at,
];

/** Crons in `deployment.crons` (times as ISO text, as the SDK sends and reads them). */
export function createPostgresCronStore(pool: pg.Pool): CronStore {
  const get = async (cronId: string) => {
    const { rows } = await pool.query<CronRecord>(
      `SELECT ${COLUMNS} FROM deployment.crons WHERE cron_id = $1`,
      [cronId],
    );
    return rows[0];
  };

  return {
    async create(cron) {
      const record = newCronRecord(cron);
      await pool.query(
        `INSERT INTO deployment.crons (${COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        values(record),
      );
      return record;
    },
    get,
    async update(cronId, changes) {
      const current = await get(cronId);
      if (!current) return undefined;
      const next = { ...current, ...changes, updated_at: new Date().toISOString() };
      await pool.query(
        `UPDATE deployment.crons SET assistant_id = $2, thread_id = $3, schedule = $4,
           payload = $5, metadata = $6, end_time = $7, next_run_date = $8, enabled = $9,
           on_run_completed = $10, updated_at = $11
         WHERE cron_id = $1`,
        [...values(next).slice(0, 10), next.updated_at],
      );
      return next;
    },
    async delete(cronId) {
      const { rowCount } = await pool.query('DELETE FROM deployment.crons WHERE cron_id = $1', [
        cronId,
      ]);
      return (rowCount ?? 0) > 0;
    },
    async search(filter, page) {
      // The sort column is one of CRON_SORT_COLUMNS (validated by the route), never user text.
      const order = `${page.sortBy} ${page.sortOrder === 'asc' ? 'ASC' : 'DESC'}, cron_id`;
      const owned = ownedBy(filter, 6);
      const { rows } = await pool.query<CronRecord>(
        `SELECT ${COLUMNS} FROM deployment.crons WHERE ${WHERE} AND ${owned.sql} ORDER BY ${order}
         LIMIT $4 OFFSET $5`,
        [...filterValues(filter), page.limit, page.offset, ...owned.params],
      );
      return rows;
    },
    async count(filter) {
      const owned = ownedBy(filter, 4);
      const { rows } = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM deployment.crons WHERE ${WHERE} AND ${owned.sql}`,
        [...filterValues(filter), ...owned.params],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async due(now) {
      const { rows } = await pool.query<CronRecord>(
        `SELECT ${COLUMNS} FROM deployment.crons
         WHERE enabled AND next_run_date IS NOT NULL AND next_run_date <= $1
         ORDER BY next_run_date`,
        [now],
      );
      return rows;
    },
    async deleteForThread(threadId) {
      await pool.query('DELETE FROM deployment.crons WHERE thread_id = $1', [threadId]);
    },
  };
}
