import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ThreadStore } from '../deployment-store';
import type { ThreadRecord, ThreadSortColumn } from '../records';
import { metadataFilterSql } from './metadata-filter-sql';

interface ThreadRow {
  thread_id: string;
  created_at: string;
  updated_at: string;
  metadata: string;
}

function toRecord(row: ThreadRow): ThreadRecord {
  return { ...row, metadata: JSON.parse(row.metadata) as Record<string, unknown> };
}

/** Thread records (the conversation state itself lives in the checkpointer). */
export function createSqliteThreadStore(db: Database.Database): ThreadStore {
  // OR IGNORE: two requests creating the same thread id race without an error; one wins.
  const insert = db.prepare<[string, string, string, string]>(
    'INSERT OR IGNORE INTO threads (thread_id, created_at, updated_at, metadata) VALUES (?, ?, ?, ?)',
  );
  const select = db.prepare<[string], ThreadRow>('SELECT * FROM threads WHERE thread_id = ?');
  const touch = db.prepare<[string, string]>(
    'UPDATE threads SET updated_at = ? WHERE thread_id = ?',
  );
  const setMetadata = db.prepare<[string, string, string]>(
    'UPDATE threads SET metadata = ?, updated_at = ? WHERE thread_id = ?',
  );
  const remove = db.prepare<[string]>('DELETE FROM threads WHERE thread_id = ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM threads');
  // Ties (same millisecond) fall back to insertion order, so "newest first" stays exact.
  const ordered = new Map<string, Database.Statement<[], ThreadRow>>();
  const selectAll = (column: ThreadSortColumn, order: 'asc' | 'desc') => {
    const key = `${column} ${order}`;
    const statement =
      ordered.get(key) ??
      db.prepare<[], ThreadRow>(`SELECT * FROM threads ORDER BY ${key}, rowid ${order}`);
    ordered.set(key, statement);
    return statement;
  };
  const copyCheckpoints = db.prepare<[string, string]>(
    `INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type,
       checkpoint, metadata)
     SELECT ?, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata
     FROM checkpoints WHERE thread_id = ?`,
  );
  const copyWrites = db.prepare<[string, string]>(
    `INSERT INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value)
     SELECT ?, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value
     FROM writes WHERE thread_id = ?`,
  );

  const create = (metadata: Record<string, unknown>, threadId: string = randomUUID()) => {
    const now = new Date().toISOString();
    const { changes } = insert.run(threadId, now, now, JSON.stringify(metadata));
    if (changes === 0) return undefined;
    const created: ThreadRecord = {
      thread_id: threadId,
      created_at: now,
      updated_at: now,
      metadata,
    };
    return created;
  };
  const get = (threadId: string): ThreadRecord | undefined => {
    const row = select.get(threadId);
    return row && toRecord(row);
  };

  return {
    create: async (metadata, threadId) => create(metadata, threadId),
    get: async (threadId) => get(threadId),
    async all(column, order, filter) {
      if (!filter) return selectAll(column, order).all().map(toRecord);
      const where = metadataFilterSql(filter);
      return db
        .prepare<unknown[], ThreadRow>(
          `SELECT * FROM threads WHERE ${where.sql} ORDER BY ${column} ${order}, rowid ${order}`,
        )
        .all(...where.params)
        .map(toRecord);
    },
    async touch(threadId) {
      touch.run(new Date().toISOString(), threadId);
    },
    async patchMetadata(threadId, metadata) {
      const thread = get(threadId);
      if (!thread) return undefined;
      const merged = { ...thread.metadata, ...metadata };
      setMetadata.run(JSON.stringify(merged), new Date().toISOString(), threadId);
      return get(threadId);
    },
    delete: async (threadId) => remove.run(threadId).changes > 0,
    async copy(source) {
      const threadId = randomUUID();
      return db.transaction(() => {
        const copied = create({ ...source.metadata, thread_id: threadId }, threadId);
        copyCheckpoints.run(threadId, source.thread_id);
        copyWrites.run(threadId, source.thread_id);
        return copied as ThreadRecord;
      })();
    },
    count: async () => count.get()?.n ?? 0,
  };
}
