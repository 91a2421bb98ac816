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
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM threads');

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
    touch(threadId: string): void {
      touch.run(new Date().toISOString(), threadId);
    },
    count(): number {
      return count.get()?.n ?? 0;
    },
  };
}

export type ThreadStore = ReturnType<typeof createThreadStore>;
