import type Database from 'better-sqlite3';
import type { CronStore } from '../deployment-store';
import { metadataFilterSql } from './metadata-filter-sql';
import { newCronRecord, type CronFilter, type CronRecord } from '../records';

interface CronRow extends Omit<CronRecord, 'payload' | 'metadata' | 'enabled'> {
  payload: string;
  metadata: string;
  enabled: number;
}

const toRecord = (row: CronRow): CronRecord => ({
  ...row,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  enabled: row.enabled === 1,
});

const WHERE = `(@assistant_id IS NULL OR assistant_id = @assistant_id)
  AND (@thread_id IS NULL OR thread_id = @thread_id)
  AND (@enabled IS NULL OR enabled = @enabled)`;

const NO_FILTER = { sql: 'TRUE', params: [] };

const filterParams = (filter: CronFilter) => ({
  assistant_id: filter.assistant_id ?? null,
  thread_id: filter.thread_id ?? null,
  enabled: filter.enabled === undefined || filter.enabled === null ? null : Number(filter.enabled),
});

/** Crons in the SQLite file. */
export function createSqliteCronStore(db: Database.Database): CronStore {
  db.exec(`CREATE TABLE IF NOT EXISTS crons (
    cron_id          TEXT PRIMARY KEY,
    assistant_id     TEXT NOT NULL,
    thread_id        TEXT,
    schedule         TEXT NOT NULL,
    payload          TEXT NOT NULL,
    metadata         TEXT NOT NULL,
    end_time         TEXT,
    next_run_date    TEXT,
    enabled          INTEGER NOT NULL,
    on_run_completed TEXT,
    user_id          TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS crons_due ON crons (enabled, next_run_date);`);
  const selectOne = db.prepare<[string], CronRow>('SELECT * FROM crons WHERE cron_id = ?');
  const selectDue = db.prepare<[string], CronRow>(
    `SELECT * FROM crons WHERE enabled = 1 AND next_run_date IS NOT NULL AND next_run_date <= ?
     ORDER BY next_run_date`,
  );
  const countWhere = db.prepare<ReturnType<typeof filterParams>, { n: number }>(
    `SELECT count(*) AS n FROM crons WHERE ${WHERE}`,
  );
  const remove = db.prepare<[string]>('DELETE FROM crons WHERE cron_id = ?');
  const removeForThread = db.prepare<[string]>('DELETE FROM crons WHERE thread_id = ?');
  const insert = db.prepare<[ReturnType<typeof toRow>]>(
    `INSERT INTO crons VALUES (@cron_id, @assistant_id, @thread_id, @schedule, @payload,
      @metadata, @end_time, @next_run_date, @enabled, @on_run_completed, @user_id,
      @created_at, @updated_at)`,
  );
  const update = db.prepare<[ReturnType<typeof toRow>]>(
    `UPDATE crons SET assistant_id = @assistant_id, thread_id = @thread_id,
      schedule = @schedule, payload = @payload, metadata = @metadata, end_time = @end_time,
      next_run_date = @next_run_date, enabled = @enabled,
      on_run_completed = @on_run_completed, updated_at = @updated_at
     WHERE cron_id = @cron_id`,
  );

  const get = (cronId: string) => {
    const row = selectOne.get(cronId);
    return row && toRecord(row);
  };

  return {
    async create(cron) {
      const record = newCronRecord(cron);
      insert.run(toRow(record));
      return record;
    },
    get: async (cronId) => get(cronId),
    async update(cronId, changes) {
      const current = get(cronId);
      if (!current) return undefined;
      const next = { ...current, ...changes, updated_at: new Date().toISOString() };
      update.run(toRow(next));
      return next;
    },
    delete: async (cronId) => remove.run(cronId).changes > 0,
    async search(filter, page) {
      // The sort column is one of CRON_SORT_COLUMNS (validated by the route), never user text.
      const order = `${page.sortBy} ${page.sortOrder === 'asc' ? 'ASC' : 'DESC'}, cron_id`;
      const owned = filter.metadata ? metadataFilterSql(filter.metadata) : NO_FILTER;
      return db
        .prepare<unknown[], CronRow>(
          `SELECT * FROM crons WHERE ${WHERE} AND ${owned.sql}
           ORDER BY ${order} LIMIT @limit OFFSET @offset`,
        )
        .all(...owned.params, { ...filterParams(filter), limit: page.limit, offset: page.offset })
        .map(toRecord);
    },
    async count(filter) {
      if (!filter.metadata) return countWhere.get(filterParams(filter))?.n ?? 0;
      const owned = metadataFilterSql(filter.metadata);
      return (
        db
          .prepare<unknown[], { n: number }>(
            `SELECT count(*) AS n FROM crons WHERE ${WHERE} AND ${owned.sql}`,
          )
          .get(...owned.params, filterParams(filter))?.n ?? 0
      );
    },
    due: async (now) => selectDue.all(now).map(toRecord),
    async deleteForThread(threadId) {
      removeForThread.run(threadId);
    },
  };
}

function toRow(record: CronRecord) {
  return {
    ...record,
    payload: JSON.stringify(record.payload),
    metadata: JSON.stringify(record.metadata),
    enabled: record.enabled ? 1 : 0,
  };
}
