import type Database from 'better-sqlite3';
import type { ExpiredThread, PruneStrategy, ThreadTtl, ThreadTtlStore } from '../thread-ttl';

/**
 * Threads' time to live in the SQLite file. A trigger deletes a thread's row with the thread, so
 * a thread created again under the same id starts without one.
 */
export function createSqliteThreadTtlStore(db: Database.Database): ThreadTtlStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS thread_ttls (
      thread_id  TEXT PRIMARY KEY,
      strategy   TEXT NOT NULL,
      minutes    REAL NOT NULL,
      pruned_at  TEXT
    );
    CREATE TRIGGER IF NOT EXISTS thread_ttls_follow_threads AFTER DELETE ON threads
    BEGIN DELETE FROM thread_ttls WHERE thread_id = old.thread_id; END;
  `);
  const upsert = db.prepare<[string, string, number]>(
    `INSERT INTO thread_ttls (thread_id, strategy, minutes) VALUES (?, ?, ?)
     ON CONFLICT (thread_id) DO UPDATE SET strategy = excluded.strategy,
       minutes = excluded.minutes, pruned_at = NULL`,
  );
  const remove = db.prepare<[string]>('DELETE FROM thread_ttls WHERE thread_id = ?');
  const select = db.prepare<[string], { strategy: PruneStrategy; minutes: number }>(
    'SELECT strategy, minutes FROM thread_ttls WHERE thread_id = ?',
  );
  // Times are ISO strings; julianday compares them as instants.
  const expired = db.prepare<{ now: string; limit: number }, ExpiredThread>(
    `SELECT t.thread_id AS threadId, x.strategy AS strategy
     FROM thread_ttls x JOIN threads t ON t.thread_id = x.thread_id
     WHERE julianday(t.updated_at) + x.minutes / 1440.0 <= julianday(@now)
       AND (x.pruned_at IS NULL OR x.pruned_at < t.updated_at)
       AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = t.thread_id
         AND r.status IN ('pending', 'running'))
     ORDER BY t.updated_at LIMIT @limit`,
  );
  const markPruned = db.prepare<[string, string]>(
    'UPDATE thread_ttls SET pruned_at = ? WHERE thread_id = ?',
  );
  let sweeping = false;

  return {
    async set(threadId, ttl: ThreadTtl | null) {
      if (ttl) upsert.run(threadId, ttl.strategy, ttl.minutes);
      else remove.run(threadId);
    },
    get: async (threadId) => select.get(threadId),
    expired: async (now, limit) => expired.all({ now: now.toISOString(), limit }),
    async markPruned(threadId, at) {
      markPruned.run(at.toISOString(), threadId);
    },
    // One process owns the file, so a flag is enough.
    async exclusively(work) {
      if (sweeping) return undefined;
      sweeping = true;
      try {
        return await work();
      } finally {
        sweeping = false;
      }
    },
  };
}
