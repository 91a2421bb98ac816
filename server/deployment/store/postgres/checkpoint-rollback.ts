import type pg from 'pg';
import type { CheckpointRollback } from '../deployment-store';
import { inTransaction } from '@server/db/postgres';

/**
 * Returns a thread's history to `headCheckpointId` (to empty when null): every checkpoint and
 * pending write off that chain goes, and the channel values only they referenced; with `runId`,
 * the run record too. One statement (`deployment.roll_back_to`, migration 3), so it is atomic on
 * its own and one round trip inside a caller's transaction. Answers how many checkpoints went.
 */
export async function deleteOffChain(
  db: pg.ClientBase | pg.Pool,
  threadId: string,
  headCheckpointId: string | null,
  runId: string | null = null,
): Promise<number> {
  const { rows } = await db.query<{ deleted: number }>(
    'SELECT deployment.roll_back_to($1, $2, $3) AS deleted',
    [threadId, headCheckpointId, runId],
  );
  return rows[0]?.deleted ?? 0;
}

/**
 * Checkpoint surgery on the official Postgres checkpointer's tables (`checkpoints`,
 * `checkpoint_blobs`, `checkpoint_writes` in schema `deployment`), each in one transaction with the
 * run record it concerns. Channel values a deleted checkpoint alone referenced go too.
 */
export function createPostgresCheckpointRollback(pool: pg.Pool): CheckpointRollback {
  return {
    rollback: (threadId, headCheckpointId, runId) =>
      deleteOffChain(pool, threadId, headCheckpointId, runId ?? null),
    removeThread: (threadId) =>
      inTransaction(pool, async (client) => {
        for (const table of [
          'checkpoint_writes',
          'checkpoint_blobs',
          'checkpoints',
          'runs',
          'threads',
        ]) {
          await client.query(`DELETE FROM deployment.${table} WHERE thread_id = $1`, [threadId]);
        }
      }),
    keepLatest: (threadId) =>
      inTransaction(pool, async (client) => {
        // A namespace's greatest checkpoint id (uuid6, growing with time) is the one the saver
        // loads; the values it references stay, those only older checkpoints referenced go.
        const latest = `SELECT DISTINCT ON (checkpoint_ns) checkpoint_ns, checkpoint_id
          FROM deployment.checkpoints WHERE thread_id = $1
          ORDER BY checkpoint_ns, checkpoint_id DESC`;
        await client.query(
          `DELETE FROM deployment.checkpoint_writes WHERE thread_id = $1
           AND (checkpoint_ns, checkpoint_id) NOT IN (${latest})`,
          [threadId],
        );
        const { rowCount } = await client.query(
          `DELETE FROM deployment.checkpoints WHERE thread_id = $1
           AND (checkpoint_ns, checkpoint_id) NOT IN (${latest})`,
          [threadId],
        );
        await client.query(
          `DELETE FROM deployment.checkpoint_blobs b WHERE b.thread_id = $1 AND NOT EXISTS (
             SELECT 1 FROM deployment.checkpoints c
             WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
               AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
          [threadId],
        );
        return rowCount ?? 0;
      }),
  };
}
