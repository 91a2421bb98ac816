import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';

export interface ThreadRecord {
  thread_id: string;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
}

interface ThreadRow {
  thread_id: string;
  created_at: string;
  updated_at: string;
  metadata: string;
}

/** Columns a search can order by in SQL (`status` needs the computed view, see thread-view.ts). */
export type ThreadSortColumn = 'thread_id' | 'created_at' | 'updated_at';

function toRecord(row: ThreadRow): ThreadRecord {
  return { ...row, metadata: JSON.parse(row.metadata) as Record<string, unknown> };
}

/** Thread records (the conversation state itself lives in the checkpointer). */
export function createThreadStore(db: Database.Database) {
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

  return {
    /** Creates the thread; `undefined` when a thread with that id already exists. */
    create(metadata: Record<string, unknown>, threadId: string = randomUUID()) {
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
    },
    get(threadId: string): ThreadRecord | undefined {
      const row = select.get(threadId);
      return row && toRecord(row);
    },
    /** Every thread, in the given order; searches filter these (a demo-sized table). */
    all(column: ThreadSortColumn, order: 'asc' | 'desc'): ThreadRecord[] {
      return selectAll(column, order).all().map(toRecord);
    },
    touch(threadId: string): void {
      touch.run(new Date().toISOString(), threadId);
    },
    /** Merges `metadata` into the thread's metadata, as the platform's PATCH does. */
    patchMetadata(threadId: string, metadata: Record<string, unknown>) {
      const thread = this.get(threadId);
      if (!thread) return undefined;
      const merged = { ...thread.metadata, ...metadata };
      setMetadata.run(JSON.stringify(merged), new Date().toISOString(), threadId);
      return this.get(threadId);
    },
    /** Deletes the record only; the caller stops runs and removes checkpoints. */
    delete(threadId: string): boolean {
      return remove.run(threadId).changes > 0;
    },
    /** A new thread holding a copy of every checkpoint and pending write of `sourceId`. */
    copy(source: ThreadRecord): ThreadRecord {
      const threadId = randomUUID();
      return db.transaction(() => {
        const copied = this.create({ ...source.metadata, thread_id: threadId }, threadId);
        copyCheckpoints.run(threadId, source.thread_id);
        copyWrites.run(threadId, source.thread_id);
        return copied as ThreadRecord;
      })();
    },
    count(): number {
      return count.get()?.n ?? 0;
    },
  };
}

export type ThreadStore = ReturnType<typeof createThreadStore>;
