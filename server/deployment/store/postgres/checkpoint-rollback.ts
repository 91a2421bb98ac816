import type pg from 'pg';
import type { CheckpointRollback } from '../deployment-store';
import { inTransaction } from './transaction';

/** `$1` thread, `$2` head: the head checkpoint and its ancestors (the history that stays). */
const KEPT_CHAIN = `
  WITH RECURSIVE chain(id) AS (
    SELECT $2::text WHERE $2::text IS NOT NULL
    UNION
    SELECT c.parent_checkpoint_id FROM deployment.checkpoints c JOIN chain ON c.checkpoint_id = chain.id
    WHERE c.thread_id = $1 AND c.checkpoint_ns = '' AND c.parent_checkpoint_id IS NOT NULL
  ) SELECT id FROM chain`;

/**
 * Returns a thread's history to `headCheckpointId` (to empty when null) inside the caller's
 * transaction: every checkpoint and pending write off that chain goes, and the channel values
 * only they referenced. Answers how many checkpoints went.
 */
export async function deleteOffChain(
  client: pg.PoolClient,
  threadId: string,
  headCheckpointId: string | null,
): Promise<number> {
  const params = [threadId, headCheckpointId];
  await client.query(
    `DELETE FROM deployment.checkpoint_writes
     WHERE thread_id = $1 AND checkpoint_id NOT IN (${KEPT_CHAIN})`,
    params,
  );
  const { rowCount } = await client.query(
    `DELETE FROM deployment.checkpoints
     WHERE thread_id = $1 AND checkpoint_id NOT IN (${KEPT_CHAIN})`,
    params,
  );
  await client.query(
    `DELETE FROM deployment.checkpoint_blobs b WHERE b.thread_id = $1 AND NOT EXISTS (
       SELECT 1 FROM deployment.checkpoints c
       WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
         AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
    [threadId],
  );
  return rowCount ?? 0;
}

/**
 * Checkpoint surgery on the official Postgres checkpointer's tables (`checkpoints`,
 * `checkpoint_blobs`, `checkpoint_writes` in schema `deployment`), each in one transaction with the
 * run record it concerns. Channel values a deleted checkpoint alone referenced go too.
 */
export function createPostgresCheckpointRollback(pool: pg.Pool): CheckpointRollback {
  return {
    rollback: (threadId, headCheckpointId, runId) =>
      inTransaction(pool, async (client) => {
        const deleted = await deleteOffChain(client, threadId, headCheckpointId);
        if (runId) await client.query('DELETE FROM deployment.runs WHERE run_id = $1', [runId]);
        return deleted;
      }),
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
  };
}
