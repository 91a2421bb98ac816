import type pg from 'pg';
import type { ExpiredThread, PruneStrategy, ThreadTtlStore } from '../thread-ttl';

/** Any fixed number: the replica holding this advisory lock is the one sweeping. */
const SWEEP_LOCK = 7_252_026;

/** Threads' time to live in `deployment.thread_ttls` (a row goes with its thread). */
export function createPostgresThreadTtlStore(pool: pg.Pool): ThreadTtlStore {
  return {
    async set(threadId, ttl) {
      await (ttl
        ? pool.query(
            `INSERT INTO deployment.thread_ttls (thread_id, strategy, minutes) VALUES ($1, $2, $3)
             ON CONFLICT (thread_id) DO UPDATE SET strategy = excluded.strategy,
               minutes = excluded.minutes, pruned_at = NULL`,
            [threadId, ttl.strategy, ttl.minutes],
          )
        : pool.query('DELETE FROM deployment.thread_ttls WHERE thread_id = $1', [threadId]));
    },
    async get(threadId) {
      const { rows } = await pool.query<{ strategy: PruneStrategy; minutes: number }>(
        'SELECT strategy, minutes FROM deployment.thread_ttls WHERE thread_id = $1',
        [threadId],
      );
      return rows[0];
    },
    async expired(now, limit) {
      const { rows } = await pool.query<ExpiredThread>(
        `SELECT t.thread_id AS "threadId", x.strategy
         FROM deployment.thread_ttls x JOIN deployment.threads t USING (thread_id)
         WHERE t.updated_at + x.minutes * interval '1 minute' <= $1
           AND (x.pruned_at IS NULL OR x.pruned_at < t.updated_at)
           AND NOT EXISTS (SELECT 1 FROM deployment.runs r WHERE r.thread_id = t.thread_id
             AND r.status IN ('pending', 'running'))
         ORDER BY t.updated_at LIMIT $2`,
        [now.toISOString(), limit],
      );
      return rows;
    },
    async markPruned(threadId, at) {
      await pool.query('UPDATE deployment.thread_ttls SET pruned_at = $1 WHERE thread_id = $2', [
        at.toISOString(),
        threadId,
      ]);
    },
    // A session lock on a connection held for the sweep: released with it, or by Postgres when
    // the replica dies mid-sweep.
    async exclusively(work) {
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock($1) AS locked',
          [SWEEP_LOCK],
        );
        if (!rows[0]?.locked) return undefined;
        try {
          return await work();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [SWEEP_LOCK]);
        }
      } finally {
        client.release();
      }
    },
  };
}
